// Small graph surgery shared by the passes.

import { OUTPUT_TYPE, type Graph, type Node, type Value } from '../graph.ts';

export const describe = (node: Node) => `${node.type} "${node.name}"`;

export function isGraphOutput(v: Value): boolean {
  return v.consumers.some((c) => c.type === OUTPUT_TYPE);
}

/** The only consumer of `v`, if it has exactly one and is not a graph output. */
export function soleConsumer(v: Value): Node | undefined {
  return v.consumers.length === 1 && !isGraphOutput(v) ? v.consumers[0] : undefined;
}

/** Removes a single-input, single-output node, feeding its consumers its input instead. */
export function bypass(graph: Graph, node: Node): void {
  graph.replaceUses(node.outputs[0]!, node.inputs[0]!);
  graph.removeNode(node);
}

/** Replaces `node`'s output by `producer`'s output and removes `node` (its work now done by `producer`). */
export function absorbInto(graph: Graph, producer: Node, node: Node): void {
  graph.replaceUses(node.outputs[0]!, producer.outputs[0]!);
  graph.removeNode(node);
}

/** Param equality on the printed form (kind-aware). */
export function paramsKey(node: Node): string {
  return JSON.stringify([...node.params].sort(([a], [b]) => (a < b ? -1 : 1)));
}
