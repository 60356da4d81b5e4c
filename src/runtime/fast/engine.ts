// The fast engine: a graph built into a program (build.ts) over one shared memory, a worker pool serving
// the task ring, and a dataflow scheduler. A frame runs in a slot: its inputs are
// copied in, every step is submitted as soon as the steps it depends on are done, and its outputs are
// copied out. Several frames may run at once, each in its own slot.

import type { Graph, Node, Value } from '../../graph/graph.ts';
import { compileKernels, chooseVariant, createKernelMemory, type SimdRequest, type SimdVariant } from '../../kernels/module.ts';
import { loadWatEncoder } from '../../kernels/wat.ts';
import type { BoundOp } from '../../ops/op.ts';
import { Arena, SlotPool } from '../../tensor/arena.ts';
import { numel } from '../../tensor/shape.ts';
import { Tensor } from '../../tensor/tensor.ts';
import { defaultThreads, WorkerPool } from '../../workers/pool.ts';
import { TaskRing } from '../../workers/task-ring.ts';
import { timingCell } from '../../workers/protocol.ts';
import type { Engine } from '../model.ts';
import type { RunResult } from '../reference-engine.ts';
import { buildProgram, type BuiltProgram } from './build.ts';
import { Dataflow } from '../../stream/dataflow.ts';
import { FrameChain } from '../../workers/frame-chain.ts';

export interface FastEngineOptions {
  /** Worker threads (default: the machine's cores). */
  readonly threads?: number;
  /** Frames that can be in flight at once, each with its own arena slot (default 1). */
  readonly slots?: number;
  /** SIMD build: 'relaxed' (FMA), 'plain', or 'auto' (default: relaxed where the runtime validates it). */
  readonly simd?: SimdRequest;
  /**
   * Who fires each step: `workers` (default) chain a frame's steps through dependency counters in shared
   * memory, so the main thread is not involved between steps; `rxjs` makes every step an RxJS node on the
   * main thread that fires when its upstream steps have emitted the frame (stream/dataflow.ts).
   */
  readonly dispatch?: 'workers' | 'rxjs';
}

export interface FastEngineStats {
  readonly threads: number;
  readonly simd: SimdVariant;
  readonly slots: number;
  readonly steps: number;
  readonly fastNodes: number;
  readonly fallbackNodes: readonly string[];
  /** One slot's planned activation bytes, and what they would take without reuse. */
  readonly slotBytes: number;
  readonly unplannedBytes: number;
  readonly arenaBytes: number;
}

export class FastEngine implements Engine {
  private readonly dataflow: Dataflow;
  private readonly chain: FrameChain;
  private failure: Error | undefined;

  private constructor(
    private readonly built: BuiltProgram,
    private readonly arena: Arena,
    private readonly ring: TaskRing,
    private readonly pool: WorkerPool,
    private readonly serving: Promise<unknown>,
    readonly slots: SlotPool,
    readonly stats: FastEngineStats,
    private readonly dispatch: 'workers' | 'rxjs',
  ) {
    this.dataflow = new Dataflow(built.steps, (step, slot) => ring.submit(step, slot, built.steps[step]!.tiles));
    this.chain = new FrameChain(new Int32Array(arena.buffer), built.ring, built.steps.map((s) => s.deps), built.steps.map((s) => s.tiles), (i) => built.steps[i]!.step.label);
    serving.catch((e: unknown) => {
      this.failure = e instanceof Error ? e : new Error(String(e));
    });
  }

  static async create(graph: Graph, ops: ReadonlyMap<Node, BoundOp>, options: FastEngineOptions = {}): Promise<FastEngine> {
    const threads = options.threads ?? defaultThreads();
    const slots = options.slots ?? 1;
    const simd = chooseVariant(options.simd);
    const module = compileKernels(simd);
    const memory = createKernelMemory();
    const arena = new Arena(memory);
    // Expressions compile to wasm while lowering; wabt (~70 ms to start) is loaded only for graphs that have one.
    if (graph.nodes.some((n) => n.type === 'pnnx.Expression')) await loadWatEncoder();
    const built = buildProgram(graph, ops, arena, slots, threads);
    const ring = new TaskRing(new Int32Array(memory.buffer), built.ring, (i) => built.steps[i]!.step.label);
    const pool = new WorkerPool(threads);
    const successors = built.steps.map((): number[] => []);
    built.steps.forEach((s, i) => new Set(s.deps).forEach((d) => successors[d]!.push(i)));
    const serving = pool.serve(memory, module, simd, built.ring, {
      steps: built.steps.map((s) => s.step), slotBases: built.slotBases, tiles: built.steps.map((s) => s.tiles), successors,
    });
    const stats: FastEngineStats = {
      threads, simd, slots,
      steps: built.steps.length,
      fastNodes: built.fastNodes,
      fallbackNodes: built.fallbackNodes.map((n) => `${n.type} "${n.name}"`),
      slotBytes: built.slotBytes,
      unplannedBytes: built.plan.unplannedBytes,
      arenaBytes: memory.buffer.byteLength,
    };
    return new FastEngine(built, arena, ring, pool, serving, new SlotPool(slots), stats, options.dispatch ?? 'workers');
  }

  /** Runs one frame in any free slot (waiting for one). */
  async run(inputs: ReadonlyMap<Value, Tensor>): Promise<RunResult> {
    const slot = await this.slots.take();
    try {
      return await this.runInSlot(slot, inputs);
    } finally {
      this.slots.release(slot);
    }
  }

  /** Runs one frame in `slot` (which the caller holds); outputs are fresh tensors. */
  async runInSlot(slot: number, inputs: ReadonlyMap<Value, Tensor>): Promise<RunResult> {
    if (this.failure) throw this.failure;
    const base = this.built.slotBases[slot]!;
    this.clearTimings(slot);
    for (const [value, view] of this.built.inputs) {
      const t = inputs.get(value)!;
      this.arena.f32(base + view.offset, numel(view.shape)).set(t.f32);
    }
    if (this.dispatch === 'rxjs') await this.dataflow.run(slot);
    else await this.chain.run(slot);
    const outputs = new Map<Value, Tensor>();
    for (const [value, view] of this.built.outputs) {
      outputs.set(value, new Tensor('f32', value.shape!, this.arena.f32(base + view.offset, numel(view.shape)).slice()));
    }
    return { values: outputs, profile: this.readTimings(slot) };
  }

  private timingView(): Float64Array {
    const r = this.built.ring;
    return new Float64Array(this.arena.buffer, r.timingBase, r.workers * r.slots * r.steps);
  }

  private clearTimings(slot: number): void {
    const t = this.timingView();
    const r = this.built.ring;
    for (let w = 0; w < r.workers; w++) t.fill(0, timingCell(r, w, slot, 0), timingCell(r, w, slot, 0) + r.steps);
  }

  /** Worker milliseconds per node for the frame just run in `slot` (tiles summed over both workers). */
  private readTimings(slot: number): Array<{ node: Node; ms: number }> {
    const t = this.timingView();
    const r = this.built.ring;
    const perNode = new Map<Node, number>();
    this.built.steps.forEach((s, i) => {
      if (!s.node) return;
      let ms = 0;
      for (let w = 0; w < r.workers; w++) ms += t[timingCell(r, w, slot, i)]!;
      perNode.set(s.node, (perNode.get(s.node) ?? 0) + ms);
    });
    return [...perNode].map(([node, ms]) => ({ node, ms }));
  }

  /** Stops submitting the steps of the frame in `slot`; its run rejects once its running steps end. */
  cancel(slot: number): void {
    if (this.dispatch === 'rxjs') this.dataflow.cancel(slot);
    else this.chain.cancel(slot);
  }

  async dispose(): Promise<void> {
    this.dataflow.dispose();
    this.chain.close();
    this.ring.close();
    await this.serving.catch(() => undefined);
    await this.pool.destroy();
  }
}
