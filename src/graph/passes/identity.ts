// Removes nodes that compute nothing at inference: identity, dropout, contiguous, float-to-float casts.

import type { Pass } from './pass.ts';
import { bypass, describe } from './util.ts';

const IDENTITY_TYPES = new Set([
  'nn.Identity', 'nn.Dropout', 'nn.Dropout1d', 'nn.Dropout2d', 'nn.Dropout3d', 'nn.AlphaDropout',
  'F.dropout', 'F.dropout1d', 'F.dropout2d', 'F.dropout3d', 'F.alpha_dropout', 'Tensor.contiguous', 'Tensor.to',
]);

export const removeIdentities: Pass = {
  name: 'remove-identities',
  minLevel: 1,
  run(graph) {
    const changes = [];
    for (const node of [...graph.nodes]) {
      if (!IDENTITY_TYPES.has(node.type) || node.inputs.length !== 1 || node.outputs.length !== 1) continue;
      const [i, o] = [node.inputs[0]!, node.outputs[0]!];
      if (i.dtype !== o.dtype || !i.shape || !o.shape || i.shape.join() !== o.shape.join()) continue;
      bypass(graph, node);
      changes.push({ description: `removed ${describe(node)}` });
    }
    return changes;
  },
};
