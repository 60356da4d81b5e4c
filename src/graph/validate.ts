// Structural checks of a graph: what must hold before shapes are inferred or anything runs.

import { GraphError } from '../errors.ts';
import { INPUT_TYPE, OUTPUT_TYPE, type Graph } from './graph.ts';
import { topologicalOrder } from './order.ts';

/**
 * Throws a GraphError for: no pnnx.Input or no pnnx.Output; an operand that is consumed but never produced
 * (dangling); an operand whose producer does not list it, or that two nodes produce; a cycle.
 */
export function validateGraph(graph: Graph): void {
  const problems: string[] = [];
  if (!graph.nodes.some((n) => n.type === INPUT_TYPE)) problems.push('it has no pnnx.Input node');
  if (!graph.nodes.some((n) => n.type === OUTPUT_TYPE)) problems.push('it has no pnnx.Output node');

  const producers = new Map<string, string[]>();
  for (const node of graph.nodes) {
    for (const v of node.outputs) producers.set(v.name, [...(producers.get(v.name) ?? []), node.name]);
  }
  for (const [name, nodes] of producers) {
    if (nodes.length > 1) problems.push(`operand "${name}" is produced by ${nodes.map((n) => `"${n}"`).join(' and ')}`);
  }
  for (const node of graph.nodes) {
    for (const v of node.inputs) {
      if (!v.producer || !producers.has(v.name)) {
        problems.push(`operand "${v.name}" used by "${node.name}" is produced by no node (dangling)`);
      }
    }
  }
  if (problems.length) throw new GraphError(`${graph.file}: invalid graph: ${problems.join('; ')}`);
  topologicalOrder(graph);
}
