// Two threads splitting one convolution step for the benchmark: the main thread and one worker both take
// the step's tiles from an atomic counter (as the engine's two workers do), then the main thread spins
// until the worker has found no tile left. The worker polls between commands (conv-worker.mjs), so the
// figures hold what two awake threads get from the kernels and the tile plans, without the 20-50 us of
// waking a sleeping thread (the engine's workers avoid it the same way while a frame is in flight).
// Handles both step kinds a convolution lowers to: `range` (IGEMM, depthwise, padded copy) and `gemm`.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { KernelExports, RangeKernelName } from '../../src/kernels/module.ts';
import type { SharedMemory, WasmModule } from '../../src/kernels/wasm.ts';
import type { Step } from '../../src/workers/protocol.ts';

const FUNCTIONS: readonly RangeKernelName[] = ['f32_igemm_4x8', 'f32_dwconv', 'f32_conv_pad'];
const SEQ = 0, KIND = 1, DONE = 2, NEXT = 3, ARGS = 4;
const RANGE = 1, GEMM = 2, CEILING = 3, EXIT = 0;

export class ConvPair {
  private readonly ctl: Int32Array;

  private constructor(private readonly worker: Worker, private readonly kernels: KernelExports, memory: SharedMemory, control: number) {
    this.ctl = new Int32Array(memory.buffer, control, 16);
  }

  /** A worker on `memory`; `control` is a 64-byte block of the memory for commands. */
  static async start(memory: SharedMemory, module: WasmModule, kernels: KernelExports, control: number): Promise<ConvPair> {
    new Int32Array(memory.buffer, control, 16).fill(0);
    const worker = new Worker(new URL('./conv-worker.mjs', import.meta.url), { workerData: { memory, module, control, functions: FUNCTIONS } });
    await once(worker, 'message');
    return new ConvPair(worker, kernels, memory, control);
  }

  /** Every tile of `step` (slot 0), shared by this thread and the worker. */
  run(step: Step, tiles: number): void {
    const k = this.kernels;
    if (step.kind === 'range') {
      const fn = k[step.fn];
      this.publish(RANGE, [step.params[0]!, tiles, FUNCTIONS.indexOf(step.fn), step.units, step.perTile, 0]);
      for (let t = this.claim(); t < tiles; t = this.claim()) {
        const u0 = t * step.perTile;
        fn(step.params[0]!, u0, Math.min(step.units, u0 + step.perTile));
      }
    } else if (step.kind === 'gemm') {
      this.publish(GEMM, [step.params[0]!, tiles, step.m, step.panels, step.tileM, step.tileN]);
      const tilesN = Math.ceil(step.panels / step.tileN);
      for (let t = this.claim(); t < tiles; t = this.claim()) {
        const tm = Math.floor(t / tilesN);
        const tn = t - tm * tilesN;
        k.f32_gemm_4x8(step.params[0]!, tm * step.tileM, Math.min(step.m, (tm + 1) * step.tileM), tn * step.tileN, Math.min(step.panels, (tn + 1) * step.tileN));
      }
    } else {
      throw new Error(`conv bench: unexpected step ${step.kind}`);
    }
    while (Atomics.load(this.ctl, DONE) === 0);
  }

  /** The SIMD ceiling on this thread and the worker at once (`iters` x 96 FLOP each). */
  runCeiling(iters: number): void {
    this.publish(CEILING, [iters]);
    this.kernels.f32x4_peak_u12(iters, 0.999999, 1e-6);
    while (Atomics.load(this.ctl, DONE) === 0);
  }

  private claim(): number {
    return Atomics.add(this.ctl, NEXT, 1);
  }

  private publish(kind: number, args: readonly number[]): void {
    const ctl = this.ctl;
    if (kind === RANGE && args[2]! < 0) throw new Error('conv bench: unknown range kernel');
    args.forEach((v, i) => (ctl[ARGS + i] = v));
    Atomics.store(ctl, NEXT, 0);
    Atomics.store(ctl, DONE, 0);
    Atomics.store(ctl, KIND, kind);
    Atomics.add(ctl, SEQ, 1);
    Atomics.notify(ctl, SEQ);
  }

  async close(): Promise<void> {
    const exit = once(this.worker, 'exit');
    Atomics.store(this.ctl, KIND, EXIT);
    Atomics.add(this.ctl, SEQ, 1);
    Atomics.notify(this.ctl, SEQ);
    await exit;
  }
}
