// Seeded random weights for a graph (`flowinfer init-weights`): deterministic per (seed, node name), so one
// node's weights do not change when another node is added, and scaled so deep nets stay finite.

import type { Graph } from '../graph/graph.ts';
import type { OpRegistry } from '../ops/registry.ts';
import { allocateWeight } from '../ops/init.ts';
import { SeededRandom } from '../tensor/random.ts';

/** FNV-1a of the text, mixed with the seed. */
function nodeSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Replaces every declared weight's data with seeded values (float32). */
export function initWeights(graph: Graph, registry: OpRegistry, seed: number): void {
  for (const node of graph.nodes) {
    const random = new SeededRandom(nodeSeed(seed, node.name));
    for (const w of node.weights.values()) delete w.data;
    registry.get(node.type)?.initWeights?.(node, random);
    // Weights the op family did not fill (constants of unknown meaning): small normal values.
    for (const [key, w] of node.weights) {
      if (w.data) continue;
      const data = allocateWeight(node, key);
      if (data) random.fillNormal(data, 0.1);
    }
  }
}
