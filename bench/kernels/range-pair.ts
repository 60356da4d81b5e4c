// Two threads splitting one range step for the benchmark: the main thread and one worker claim its
// tiles (range-control.mjs), then the main thread spins until every tile has finished. The worker polls
// between commands, so this measures what two awake threads get from the kernels and the tile plan,
// without the 20-50 us of waking a sleeping thread (the engine's workers poll the same way while a frame
// is in flight). A worker that is descheduled claims nothing and costs nothing: the main thread then
// runs every tile.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { KernelExports, RangeKernelName } from '../../src/kernels/module.ts';
import type { SharedMemory, WasmModule } from '../../src/kernels/wasm.ts';
import {
  RCMD_EXIT, RCMD_RANGE, RC_CLAIM, RC_FINISHED, RC_FN, RC_KIND, RC_PARAMS, RC_PER_TILE, RC_SEQ, RC_TILES, RC_UNITS, RC_WORDS,
} from './range-control.mjs';

export class RangePair {
  private readonly ctl: Int32Array;

  private constructor(
    private readonly worker: Worker,
    private readonly names: readonly RangeKernelName[],
    private readonly kernels: KernelExports,
    memory: SharedMemory,
    control: number,
  ) {
    this.ctl = new Int32Array(memory.buffer, control, RC_WORDS);
  }

  /** A worker on `memory` that can run the kernels `names`; `control` is a 64-byte block of the memory. */
  static async start(memory: SharedMemory, module: WasmModule, kernels: KernelExports, control: number, names: readonly RangeKernelName[]): Promise<RangePair> {
    new Int32Array(memory.buffer, control, RC_WORDS).fill(0);
    const worker = new Worker(new URL('./range-worker.mjs', import.meta.url), { workerData: { memory, module, control, names } });
    await once(worker, 'message');
    return new RangePair(worker, names, kernels, memory, control);
  }

  /** Units [0, units) of fn in tiles of perTile, shared by this thread and the worker. */
  run(fn: RangeKernelName, params: number, units: number, perTile: number): void {
    const ctl = this.ctl;
    const tiles = Math.ceil(units / perTile);
    const seq = (Atomics.load(ctl, RC_SEQ) + 1) | 0;
    const tag = (seq & 0xffff) << 16;
    Atomics.store(ctl, RC_KIND, RCMD_RANGE);
    Atomics.store(ctl, RC_FN, this.names.indexOf(fn));
    Atomics.store(ctl, RC_PARAMS, params);
    Atomics.store(ctl, RC_UNITS, units);
    Atomics.store(ctl, RC_PER_TILE, perTile);
    Atomics.store(ctl, RC_TILES, tiles);
    Atomics.store(ctl, RC_FINISHED, 0);
    Atomics.store(ctl, RC_CLAIM, tag);
    Atomics.store(ctl, RC_SEQ, seq);
    Atomics.notify(ctl, RC_SEQ);
    const kernel = this.kernels[fn];
    for (;;) {
      const claim = Atomics.load(ctl, RC_CLAIM);
      const tile = claim & 0xffff;
      if (tile >= tiles) break;
      if (Atomics.compareExchange(ctl, RC_CLAIM, claim, claim + 1) !== claim) continue;
      kernel(params, tile * perTile, Math.min(units, (tile + 1) * perTile));
      Atomics.add(ctl, RC_FINISHED, 1);
    }
    while (Atomics.load(ctl, RC_FINISHED) < tiles);
  }

  async close(): Promise<void> {
    const exit = once(this.worker, 'exit');
    Atomics.store(this.ctl, RC_KIND, RCMD_EXIT);
    Atomics.add(this.ctl, RC_SEQ, 1);
    Atomics.notify(this.ctl, RC_SEQ);
    await exit;
  }
}
