// Seeded weight fills shared by the op families' `initWeights` (flowinfer init-weights).

import type { Node } from '../graph/graph.ts';
import { numel } from '../tensor/shape.ts';
import type { SeededRandom } from '../tensor/random.ts';

/** A fresh float32 array for the node's declared weight `key` (undefined if it is not declared). */
export function allocateWeight(node: Node, key: string): Float32Array | undefined {
  const w = node.weights.get(key);
  if (!w || w.dtype === null || w.shape.length === 0) return undefined;
  const data = new Float32Array(numel(w.shape));
  node.weights.set(key, { dtype: 'f32', shape: w.shape, data });
  return data;
}

/**
 * He (Kaiming) normal weights for a layer followed by a rectifier, std = sqrt(2 / fanIn), and a small
 * uniform bias: activations keep their scale from layer to layer, so deep nets stay finite.
 */
export function initHe(node: Node, random: SeededRandom, fanIn: number, weightKey = 'weight', biasKey = 'bias'): void {
  const w = allocateWeight(node, weightKey);
  if (w) random.fillNormal(w, Math.sqrt(2 / fanIn));
  const b = allocateWeight(node, biasKey);
  if (b) random.fillUniform(b, -0.1, 0.1);
}
