// Constant folding: a node whose inputs are all constants (pnnx.Attribute outputs with data), or an
// expression with no inputs at all, is computed now by its reference and replaced by a constant.

import { INPUT_TYPE, OUTPUT_TYPE, type Node } from '../graph.ts';
import { topologicalOrder } from '../order.ts';
import { Tensor } from '../../tensor/tensor.ts';
import type { Pass } from './pass.ts';
import { describe } from './util.ts';

const CONSTANT = 'pnnx.Attribute';

/** The constant a value holds, if its producer is a pnnx.Attribute with data. */
function constantOf(node: Node | undefined): Tensor | undefined {
  if (!node || node.type !== CONSTANT) return undefined;
  const w = node.weights.get('data');
  return w?.data && w.dtype ? new Tensor(w.dtype, w.shape, w.data) : undefined;
}

export const foldConstants: Pass = {
  name: 'constant-folding',
  minLevel: 2,
  run(graph, ctx) {
    const changes = [];
    for (const node of topologicalOrder(graph)) {
      if (node.type === INPUT_TYPE || node.type === OUTPUT_TYPE || node.type === CONSTANT || node.outputs.length === 0) continue;
      const inputs = node.inputs.map((v) => constantOf(v.producer));
      const computable = node.type === 'pnnx.Expression' ? inputs.every(Boolean) : inputs.length > 0 && inputs.every(Boolean);
      if (!computable || [...node.weights.values()].some((w) => w.dtype !== null && w.shape.length > 0 && !w.data)) continue;
      const results = ctx.registry.get(node.type)!.bind(node).reference(inputs as Tensor[]);
      // pnnx stores scalars as (1): a 0-d result cannot be an attribute, so it stays computed at run time.
      if (results.some((t) => t.shape.length === 0)) continue;
      node.outputs.forEach((out, i) => {
        const t = results[i]!;
        const constant = graph.addNode({
          type: CONSTANT,
          name: `${node.name}.folded${node.outputs.length > 1 ? `_${i}` : ''}`,
          inputs: [],
          outputs: [graph.value(`${out.name}.folded`)],
          weights: [['data', { dtype: t.dtype, shape: t.shape, data: t.data }]],
        }, graph.nodes.indexOf(node));
        graph.replaceUses(out, constant.outputs[0]!);
      });
      graph.removeNode(node);
      changes.push({ description: `folded ${describe(node)} into a constant` });
    }
    return changes;
  },
};
