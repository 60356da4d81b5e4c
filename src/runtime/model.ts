// A loaded model: its graph, bound ops and an engine. `run` takes tensors and returns outputs by name;
// `stream` maps a source of frames to results. A new input shape (batch or image size), or a stream that
// wants more frames in flight than the engine has slots, rebuilds the engine once the frames running
// on the old one have finished.

import { Subject, type Observable } from 'rxjs';
import type { Graph, Node, Value } from '../graph/graph.ts';
import type { PassReport } from '../graph/passes/index.ts';
import { inferShapes } from '../graph/shapes.ts';
import type { BoundOp } from '../ops/op.ts';
import { streamFrames, type FrameRunner } from '../stream/stream.ts';
import type { FrameMetrics, FrameSource, StreamOptions, StreamResult } from '../stream/types.ts';
import type { SlotPool } from '../tensor/arena.ts';
import { sameShape, type Shape } from '../tensor/shape.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { DebugSettings } from './debug.ts';
import { bindInputs, inputPorts, outputPorts, type ModelInputs, type ModelOutputs, type Port, type TensorInfo } from './io.ts';
import type { RunResult } from './reference-engine.ts';
import { UsageError } from '../errors.ts';

/** What executes a graph whose shapes are inferred: frames run in slots, several at once if it has several. */
export interface Engine {
  readonly slots: SlotPool;
  runInSlot(slot: number, inputs: ReadonlyMap<Value, Tensor>): Promise<RunResult>;
  /** Stops the frame in `slot` early; its run rejects once its running work has ended. */
  cancel(slot: number): void;
  dispose(): Promise<void>;
}

export type EngineFactory = (graph: Graph, ops: ReadonlyMap<Node, BoundOp>, slots: number) => Promise<Engine>;

export class Model {
  private readonly inputPortList: Port[];
  private readonly outputPortList: Port[];
  private engine: Engine | undefined;
  private engineSlots = 0;
  private shapes: Shape[];
  /** Frames running on the current engine; a rebuild waits for them. */
  private active = 0;
  private drained: Array<() => void> = [];
  private rebuilding: Promise<Engine> | undefined;
  private disposed = false;
  private runs = 0;
  private readonly metricsSubject = new Subject<FrameMetrics>();
  /** Per-frame latency, per-node time, frames in flight, queue depth and dropped frames, as frames finish. */
  readonly metrics$: Observable<FrameMetrics> = this.metricsSubject.asObservable();

  constructor(
    readonly graph: Graph,
    private readonly ops: ReadonlyMap<Node, BoundOp>,
    readonly engineName: 'reference' | 'fast',
    private readonly makeEngine: EngineFactory,
    private readonly debug: DebugSettings,
    /** What the optimisation passes did at load. */
    readonly passes: readonly PassReport[] = [],
    private readonly defaultSlots = 1,
  ) {
    this.inputPortList = inputPorts(graph);
    this.outputPortList = outputPorts(graph);
    this.shapes = this.inputPortList.map((p) => p.value.shape!);
  }

  /** Names, current shapes and dtypes of the inputs. */
  get inputs(): TensorInfo[] {
    return this.inputPortList.map((p) => ({ name: p.name, shape: p.value.shape!, dtype: p.value.dtype }));
  }

  get outputs(): TensorInfo[] {
    return this.outputPortList.map((p) => ({ name: p.name, shape: p.value.shape!, dtype: p.value.dtype }));
  }

  /** The current engine's figures (the fast engine: threads, SIMD build, plan sizes, nodes on the fallback). */
  get engineStats(): unknown {
    return (this.engine as { stats?: unknown } | undefined)?.stats;
  }

  /** The engine for these input shapes with at least `slots` slots, rebuilt if needed. */
  private async engineFor(shapes: Shape[], slots: number): Promise<Engine> {
    for (;;) {
      if (this.disposed) throw new UsageError('the model was disposed');
      const fits = this.engine && this.engineSlots >= slots && shapes.every((s, i) => sameShape(s, this.shapes[i]!));
      if (fits) return this.engine!;
      if (this.rebuilding) {
        await this.rebuilding.catch(() => undefined);
        continue;
      }
      this.rebuilding = this.rebuild(shapes, Math.max(slots, this.engineSlots, this.defaultSlots));
      try {
        return await this.rebuilding;
      } finally {
        this.rebuilding = undefined;
      }
    }
  }

  private async rebuild(shapes: Shape[], slots: number): Promise<Engine> {
    while (this.active > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    await this.engine?.dispose();
    this.engine = undefined;
    if (shapes.some((s, i) => !sameShape(s, this.shapes[i]!))) {
      inferShapes(this.graph, this.ops, shapes);
      this.shapes = shapes;
    }
    this.engine = await this.makeEngine(this.graph, this.ops, slots);
    // What was asked for, not what the engine has: the reference engine runs one frame at a time and the
    // others wait for its slot, which is no reason to rebuild it.
    this.engineSlots = slots;
    return this.engine;
  }

  /** Runs one frame; `onSlot` learns the slot so that the caller can cancel the frame. */
  private async runFrame(inputs: ModelInputs, slots: number, onSlot?: (cancel: () => void) => void): Promise<RunResult> {
    const bound = bindInputs(this.inputPortList, inputs);
    const engine = await this.engineFor(this.inputPortList.map((p) => bound.get(p.value)!.shape), slots);
    this.active++;
    const slot = await engine.slots.take();
    try {
      onSlot?.(() => engine.cancel(slot));
      return await engine.runInSlot(slot, bound);
    } finally {
      engine.slots.release(slot);
      if (--this.active === 0) for (const d of this.drained.splice(0)) d();
    }
  }

  /** Runs one batch; outputs by name (with FLOWINFER_STOP_AFTER: that node's outputs by operand name). */
  async run(inputs: ModelInputs): Promise<ModelOutputs> {
    const started = performance.now();
    const result = await this.runFrame(inputs, 1);
    if (this.metricsSubject.observed) {
      this.metricsSubject.next({ source: 'run', index: this.runs, latencyMs: performance.now() - started, nodeMs: nodeTimes(result), inFlight: this.active, queued: 0, dropped: 0 });
    }
    this.runs++;
    if (this.debug.profile) printProfile(result);
    if (this.debug.stopAfter !== undefined) {
      return Object.fromEntries([...result.values].map(([v, t]) => [v.name, t]));
    }
    return this.outputsOf(result);
  }

  private outputsOf(result: RunResult): ModelOutputs {
    return Object.fromEntries(this.outputPortList.map((p) => [p.name, result.values.get(p.value)!]));
  }

  /**
   * Applies the model to a stream of frames: an Observable (pushed), an async iterable or a Node object
   * stream (pulled, so paused while all slots are busy). Results carry each frame's metadata.
   */
  stream<M = unknown>(source: FrameSource<M>, options: StreamOptions = {}): Observable<StreamResult<M>> {
    const slots = Math.max(1, options.maxInFlight ?? 2);
    const runner: FrameRunner = {
      run: (input) => {
        let cancel: (() => void) | undefined;
        let cancelled = false;
        const done = this.runFrame(input, slots, (c) => {
          cancel = c;
          if (cancelled) c();
        }).then((r) => ({ outputs: this.outputsOf(r), nodeMs: nodeTimes(r) }));
        return { done, cancel: () => { cancelled = true; cancel?.(); } };
      },
      onMetrics: (m) => this.metricsSubject.next(m),
    };
    return streamFrames(runner, source, { ...options, maxInFlight: slots });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.metricsSubject.complete();
    await this.rebuilding?.catch(() => undefined);
    await this.engine?.dispose();
    this.engine = undefined;
  }
}

function nodeTimes(result: RunResult): FrameMetrics['nodeMs'] {
  return result.profile.map(({ node, ms }) => ({ name: node.name, type: node.type, ms }));
}

function printProfile(result: RunResult): void {
  const total = result.profile.reduce((s, p) => s + p.ms, 0);
  const rows = [...result.profile].sort((a, b) => b.ms - a.ms);
  process.stderr.write(`[flowinfer] profile: ${total.toFixed(2)} ms over ${rows.length} nodes\n`);
  for (const { node, ms } of rows) {
    process.stderr.write(`[flowinfer] ${ms.toFixed(3).padStart(10)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${node.type} ${node.name}\n`);
  }
}
