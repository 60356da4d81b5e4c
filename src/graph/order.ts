// Deterministic topological order by in-degree counting (Kahn's algorithm): a node becomes ready when
// all the producers of its inputs have been placed, the seed design's "meet count". Among ready nodes
// the one declared first goes first, so a file already in order keeps its order.

import { GraphError } from '../errors.ts';
import type { Graph, Node } from './graph.ts';

/** Nodes that feed `node` (producers of its inputs), without duplicates. */
export function predecessors(node: Node): Node[] {
  const out = new Set<Node>();
  for (const v of node.inputs) if (v.producer) out.add(v.producer);
  return [...out];
}

/** Nodes that consume any output of `node`, without duplicates. */
export function successors(node: Node): Node[] {
  const out = new Set<Node>();
  for (const v of node.outputs) for (const c of v.consumers) out.add(c);
  return [...out];
}

/** A min-heap of node positions, so ties break by declaration order in O(log n). */
class IndexHeap {
  private readonly items: number[] = [];
  get size(): number { return this.items.length; }
  push(x: number): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p]! <= a[i]!) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

/** The nodes in topological order; throws a GraphError naming the nodes on a cycle if there is one. */
export function topologicalOrder(graph: Graph): Node[] {
  const position = new Map(graph.nodes.map((n, i) => [n, i]));
  const waiting = new Map<Node, number>();
  const ready = new IndexHeap();
  for (const [n, i] of position) {
    const count = predecessors(n).filter((p) => position.has(p)).length;
    waiting.set(n, count);
    if (count === 0) ready.push(i);
  }
  const order: Node[] = [];
  while (ready.size) {
    const node = graph.nodes[ready.pop()]!;
    order.push(node);
    for (const s of successors(node)) {
      const left = waiting.get(s)! - 1;
      waiting.set(s, left);
      if (left === 0) ready.push(position.get(s)!);
    }
  }
  if (order.length < graph.nodes.length) {
    const placed = new Set(order);
    const cycle = findCycle(graph.nodes.filter((n) => !placed.has(n)));
    throw new GraphError(`${graph.file}: the graph has a cycle: ${cycle.map((n) => `"${n.name}"`).join(' -> ')}`);
  }
  return order;
}

/** One cycle among `nodes` (each of which lies on or downstream of a cycle), as a closed path. */
function findCycle(nodes: readonly Node[]): Node[] {
  const inSet = new Set(nodes);
  // Walk backwards along unplaced predecessors: every unplaced node has one, so the walk must repeat.
  const seen = new Map<Node, number>();
  const path: Node[] = [];
  let n: Node | undefined = nodes[0];
  while (n && !seen.has(n)) {
    seen.set(n, path.length);
    path.push(n);
    n = predecessors(n).find((p) => inSet.has(p));
  }
  if (!n) return path;
  const cycle = path.slice(seen.get(n)!).reverse();
  return [...cycle, cycle[0]!];
}
