// Common-subexpression elimination: two nodes of the same type, with the same params, the same inputs in
// the same order and the same weights (equal bytes) compute the same thing; the later one goes.

import { INPUT_TYPE, OUTPUT_TYPE, type Node } from '../graph.ts';
import { topologicalOrder } from '../order.ts';
import type { Pass } from './pass.ts';
import { describe, paramsKey } from './util.ts';

function sameWeights(a: Node, b: Node): boolean {
  if (a.weights.size !== b.weights.size) return false;
  for (const [k, wa] of a.weights) {
    const wb = b.weights.get(k);
    if (!wb || wa.dtype !== wb.dtype || wa.shape.join() !== wb.shape.join()) return false;
    // Weights without data (a graph inspected without its .bin) have unknown values: never the same.
    if (!wa.data || !wb.data) return false;
    if (wa.data === wb.data) continue;
    const x = new Uint8Array(wa.data.buffer, wa.data.byteOffset, wa.data.byteLength);
    const y = new Uint8Array(wb.data.buffer, wb.data.byteOffset, wb.data.byteLength);
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

export const eliminateCommonSubexpressions: Pass = {
  name: 'common-subexpressions',
  minLevel: 2,
  run(graph) {
    const seen = new Map<string, Node[]>();
    const changes = [];
    for (const node of topologicalOrder(graph)) {
      if (node.type === INPUT_TYPE || node.type === OUTPUT_TYPE || node.outputs.length === 0) continue;
      const key = `${node.type}|${paramsKey(node)}|${node.inputs.map((v) => v.name).join(',')}|${node.outputs.length}`;
      const twin = (seen.get(key) ?? []).find((other) => sameWeights(node, other));
      if (!twin) {
        seen.set(key, [...(seen.get(key) ?? []), node]);
        continue;
      }
      node.outputs.forEach((v, i) => graph.replaceUses(v, twin.outputs[i]!));
      graph.removeNode(node);
      changes.push({ description: `merged ${describe(node)} into ${describe(twin)}` });
    }
    return changes;
  },
};
