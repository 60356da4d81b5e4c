// A plain-data picture of a graph, for deep-equality checks (round trips, builders vs files).
import type { Graph } from '../../src/graph/graph.ts';

export function snapshot(g: Graph) {
  return {
    nodes: g.nodes.map((n) => ({
      type: n.type,
      name: n.name,
      inputs: n.inputs.map((v) => v.name),
      outputs: n.outputs.map((v) => v.name),
      params: Object.fromEntries([...n.params].sort(([a], [b]) => a.localeCompare(b))),
      weights: Object.fromEntries([...n.weights].map(([k, w]) => [k, { dtype: w.dtype, shape: [...w.shape] }])),
      inputKeys: Object.fromEntries(n.inputKeys),
    })),
    annotations: Object.fromEntries([...g.values].map(([k, v]) => [k, v.annotation ?? null])),
  };
}
