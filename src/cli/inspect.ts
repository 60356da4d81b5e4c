// `flowinfer inspect <model.param>`: one row per node in topological order, then totals.

import { writeFileSync } from 'node:fs';
import { loadPnnxFiles } from '../format/pnnx/load.ts';
import { toDot } from '../graph/dot.ts';
import { inferShapes } from '../graph/shapes.ts';
import { summarize } from '../graph/summary.ts';
import { validateGraph } from '../graph/validate.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { formatShape } from '../tensor/shape.ts';
import { humanCount, table } from './format.ts';

export interface InspectOptions {
  readonly inputShape?: number[][];
  readonly json?: boolean;
  readonly dot?: string;
}

export function inspectCommand(paramPath: string, options: InspectOptions): string {
  const graph = loadPnnxFiles(paramPath, { weights: 'none' });
  validateGraph(graph);
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, options.inputShape);
  const summary = summarize(graph, ops);
  if (options.dot) writeFileSync(options.dot, toDot(graph));
  if (options.json) return JSON.stringify(summary);
  const rows = summary.nodes.map((n) => [
    n.name,
    n.type,
    n.outputs.map((o) => formatShape(o.shape)).join(' ') || '-',
    n.params ? humanCount(n.params) : '-',
    n.macs ? humanCount(n.macs) : '-',
  ]);
  const t = summary.totals;
  return [
    table(['name', 'type', 'outputs', 'params', 'MACs'], rows, [3, 4]),
    '',
    `${t.nodes} nodes, ${humanCount(t.params)} parameters (${t.params}), ${humanCount(t.macs)} multiply-accumulates`,
  ].join('\n');
}
