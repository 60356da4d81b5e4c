// Per-node facts for `flowinfer inspect`: output shapes, parameter counts and multiply-accumulates,
// in topological order, with totals.

import type { BoundOp } from '../ops/op.ts';
import { numel, type Shape } from '../tensor/shape.ts';
import type { Graph, Node, Value } from './graph.ts';
import { topologicalOrder } from './order.ts';

export interface NodeSummary {
  readonly name: string;
  readonly type: string;
  readonly outputs: ReadonlyArray<{ readonly name: string; readonly shape: Shape }>;
  /** Elements in the node's weights. */
  readonly params: number;
  readonly macs: number;
}

export interface GraphSummary {
  readonly nodes: readonly NodeSummary[];
  readonly totals: { readonly nodes: number; readonly params: number; readonly macs: number };
}

export function weightCount(node: Node): number {
  let n = 0;
  for (const w of node.weights.values()) if (w.dtype !== null) n += numel(w.shape);
  return n;
}

/** Needs shapes inferred (graph/shapes.ts) with the same bound ops. */
export function summarize(graph: Graph, ops: ReadonlyMap<Node, BoundOp>): GraphSummary {
  const nodes = topologicalOrder(graph).map((node): NodeSummary => {
    const info = (v: Value) => {
      if (!v.shape) throw new Error(`operand "${v.name}" has no inferred shape: run inferShapes first`);
      return { shape: v.shape, dtype: v.dtype };
    };
    const inputs = node.inputs.map(info);
    const outputs = node.outputs.map(info);
    return {
      name: node.name,
      type: node.type,
      outputs: node.outputs.map((v, i) => ({ name: v.name, shape: outputs[i]!.shape })),
      params: weightCount(node),
      macs: ops.get(node)!.macs(inputs, outputs),
    };
  });
  return {
    nodes,
    totals: {
      nodes: nodes.length,
      params: nodes.reduce((s, n) => s + n.params, 0),
      macs: nodes.reduce((s, n) => s + n.macs, 0),
    },
  };
}
