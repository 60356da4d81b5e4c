// Dead-code elimination: nodes (and with them their weights) that no graph output depends on.
// Graph inputs stay: they are the model's signature.

import { INPUT_TYPE, OUTPUT_TYPE, type Node } from '../graph.ts';
import type { Pass } from './pass.ts';
import { describe } from './util.ts';

export const eliminateDeadCode: Pass = {
  name: 'dead-code',
  minLevel: 1,
  run(graph) {
    const live = new Set<Node>();
    const stack = graph.nodes.filter((n) => n.type === OUTPUT_TYPE);
    while (stack.length) {
      const n = stack.pop()!;
      if (live.has(n)) continue;
      live.add(n);
      for (const v of n.inputs) if (v.producer) stack.push(v.producer);
    }
    const changes = [];
    for (const node of [...graph.nodes].reverse()) {
      if (live.has(node) || node.type === INPUT_TYPE) continue;
      graph.removeNode(node);
      changes.push({ description: `removed ${describe(node)}: no output depends on it` });
    }
    return changes.reverse();
  },
};
