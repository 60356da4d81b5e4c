// A loaded model: its graph, bound ops and an engine. `run` takes tensors and returns outputs by name;
// a new input shape (batch or image size) re-infers the graph's shapes before running.

import type { Graph, Node, Value } from '../graph/graph.ts';
import { inferShapes } from '../graph/shapes.ts';
import type { BoundOp } from '../ops/op.ts';
import { sameShape, type Shape } from '../tensor/shape.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { DebugSettings } from './debug.ts';
import { bindInputs, inputPorts, outputPorts, type ModelInputs, type ModelOutputs, type Port, type TensorInfo } from './io.ts';
import type { RunResult } from './reference-engine.ts';
import type { PassReport } from '../graph/passes/index.ts';

/** What executes a graph whose shapes are inferred. Made anew when the input shapes change. */
export interface Engine {
  run(inputs: ReadonlyMap<Value, Tensor>): Promise<RunResult>;
  dispose(): Promise<void>;
}

export type EngineFactory = (graph: Graph, ops: ReadonlyMap<Node, BoundOp>) => Promise<Engine>;

export class Model {
  private readonly inputPortList: Port[];
  private readonly outputPortList: Port[];
  private engine: Engine | undefined;
  private shapes: Shape[];
  private disposed = false;

  constructor(
    readonly graph: Graph,
    private readonly ops: ReadonlyMap<Node, BoundOp>,
    readonly engineName: 'reference' | 'fast',
    private readonly makeEngine: EngineFactory,
    private readonly debug: DebugSettings,
    /** What the optimisation passes did at load. */
    readonly passes: readonly PassReport[] = [],
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

  /** Runs one batch; outputs by name (with FLOWINFER_STOP_AFTER: that node's outputs by operand name). */
  async run(inputs: ModelInputs): Promise<ModelOutputs> {
    if (this.disposed) throw new Error('the model was disposed');
    const bound = bindInputs(this.inputPortList, inputs);
    const shapes = this.inputPortList.map((p) => bound.get(p.value)!.shape);
    if (!this.engine || shapes.some((s, i) => !sameShape(s, this.shapes[i]!))) {
      if (shapes.some((s, i) => !sameShape(s, this.shapes[i]!))) {
        inferShapes(this.graph, this.ops, shapes);
        this.shapes = shapes;
      }
      await this.engine?.dispose();
      this.engine = await this.makeEngine(this.graph, this.ops);
    }
    const result = await this.engine.run(bound);
    if (this.debug.profile) printProfile(result);
    if (this.debug.stopAfter !== undefined) {
      return Object.fromEntries([...result.values].map(([v, t]) => [v.name, t]));
    }
    return Object.fromEntries(this.outputPortList.map((p) => [p.name, result.values.get(p.value)!]));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.engine?.dispose();
    this.engine = undefined;
  }
}

function printProfile(result: RunResult): void {
  const total = result.profile.reduce((s, p) => s + p.ms, 0);
  const rows = [...result.profile].sort((a, b) => b.ms - a.ms);
  process.stderr.write(`[flowinfer] profile: ${total.toFixed(2)} ms over ${rows.length} nodes\n`);
  for (const { node, ms } of rows) {
    process.stderr.write(`[flowinfer] ${ms.toFixed(3).padStart(10)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${node.type} ${node.name}\n`);
  }
}
