// The reference executor: the seed design's forward pass. Nodes run in topological order on the ops'
// plain-TypeScript references; each output goes to its consumers, and an intermediate tensor is released
// as soon as its last consumer has run.

import { FlowinferError, NodeError } from '../errors.ts';
import type { Graph, Node, Value } from '../graph/graph.ts';
import { topologicalOrder } from '../graph/order.ts';
import type { BoundOp } from '../ops/op.ts';
import { formatShape } from '../tensor/shape.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { DebugSettings } from './debug.ts';

export interface RunResult {
  /** Values asked for: the graph outputs, or the outputs of the stop-after node. */
  readonly values: Map<Value, Tensor>;
  /** Milliseconds per node, when profiling. */
  readonly profile: Array<{ node: Node; ms: number }>;
}

export class ReferenceEngine {
  private readonly order: Node[];

  constructor(
    private readonly graph: Graph,
    private readonly ops: ReadonlyMap<Node, BoundOp>,
    private readonly debug: DebugSettings,
  ) {
    this.order = topologicalOrder(graph);
  }

  run(inputs: ReadonlyMap<Value, Tensor>): RunResult {
    const live = new Map<Value, Tensor>(inputs);
    const outputs = new Set(this.graph.outputs);
    // Uses left per value: consumers, plus one if it is a graph output (never released).
    const usesLeft = new Map<Value, number>();
    for (const v of this.graph.values.values()) usesLeft.set(v, v.consumers.length + (outputs.has(v) ? 1 : 0));
    const profile: Array<{ node: Node; ms: number }> = [];

    for (const node of this.order) {
      if (node.type === 'pnnx.Input') continue;
      const args = node.inputs.map((v) => {
        const t = live.get(v);
        if (!t) throw new NodeError(node, `input operand "${v.name}" has no value (released too early or never computed)`);
        return t;
      });
      const op = this.ops.get(node)!;
      const start = performance.now();
      if (this.debug.level >= 1) {
        const shapes = this.debug.level >= 2 ? ` ${args.map((t) => formatShape(t.shape)).join(' ')} ->` : '';
        process.stderr.write(`[flowinfer] ${node.type} ${node.name}${shapes}\n`);
      }
      const results = runNode(node, op, args);
      profile.push({ node, ms: performance.now() - start });
      if (this.debug.level >= 2) process.stderr.write(`[flowinfer]   -> ${results.map((t) => formatShape(t.shape)).join(' ')}\n`);
      node.outputs.forEach((v, i) => live.set(v, results[i]!));
      if (this.debug.stopAfter === node.name) {
        return { values: new Map(node.outputs.map((v) => [v, live.get(v)!])), profile };
      }
      for (const v of new Set(node.inputs)) {
        const left = usesLeft.get(v)! - node.inputs.filter((x) => x === v).length;
        usesLeft.set(v, left);
        if (left <= 0) live.delete(v);
      }
    }
    if (this.debug.stopAfter !== undefined && !this.graph.hasNode(this.debug.stopAfter)) {
      throw new FlowinferError(`FLOWINFER_STOP_AFTER=${this.debug.stopAfter}: the model has no node of that name`);
    }
    return { values: new Map([...outputs].map((v) => [v, live.get(v)!])), profile };
  }
}

function runNode(node: Node, op: BoundOp, args: Tensor[]): Tensor[] {
  let results: Tensor[];
  try {
    results = op.reference(args);
  } catch (e) {
    if (e instanceof FlowinferError) throw e;
    throw new NodeError(node, `failed on inputs ${args.map((t) => formatShape(t.shape)).join(', ')}: ${(e as Error).message}`);
  }
  if (results.length !== node.outputs.length) {
    throw new NodeError(node, `returned ${results.length} outputs, the graph wires ${node.outputs.length}`);
  }
  return results;
}
