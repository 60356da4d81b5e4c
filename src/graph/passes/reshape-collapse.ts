// Collapsing reshape chains: a reshape/view whose shape is a param depends only on the number of elements
// of its input, so whatever shape-only op fed it (flatten, reshape, view, squeeze, unsqueeze) can go.

import type { Node } from '../graph.ts';
import type { Pass } from './pass.ts';
import { describe, soleConsumer } from './util.ts';

const RESHAPES = new Set(['Tensor.view', 'Tensor.reshape', 'torch.reshape']);
const SHAPE_ONLY = new Set([...RESHAPES, 'torch.flatten', 'nn.Flatten', 'torch.squeeze', 'torch.unsqueeze']);

/** A reshape with its target shape as a param (not a `$shape` input). */
const isStaticReshape = (n: Node) => RESHAPES.has(n.type) && n.inputs.length === 1 && n.params.has('shape');

export const collapseReshapes: Pass = {
  name: 'collapse-reshapes',
  minLevel: 1,
  run(graph) {
    const changes = [];
    for (const first of [...graph.nodes]) {
      if (!SHAPE_ONLY.has(first.type) || first.inputs.length !== 1 || first.outputs.length !== 1) continue;
      const second = soleConsumer(first.outputs[0]!);
      if (!second || !isStaticReshape(second)) continue;
      const source = first.inputs[0]!;
      second.inputs[0] = source;
      source.consumers.push(second);
      graph.removeNode(first);
      changes.push({ description: `removed ${describe(first)}: ${describe(second)} reshapes its input directly` });
    }
    return changes;
  },
};
