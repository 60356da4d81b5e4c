// `flowinfer inspect <model>`: one row per node in topological order, then totals; `--passes` first
// optimises the graph and prints what each pass changed.

import { writeFileSync } from 'node:fs';
import { toDot } from '../graph/dot.ts';
import type { Graph } from '../graph/graph.ts';
import { DEFAULT_OPT_LEVEL, optimizeGraph, type OptLevel, type PassReport } from '../graph/passes/index.ts';
import { inferShapes } from '../graph/shapes.ts';
import { summarize } from '../graph/summary.ts';
import { validateGraph } from '../graph/validate.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { formatShape } from '../tensor/shape.ts';
import { humanCount, table } from './format.ts';
import { fileGraph, zooGraph } from './model-source.ts';

export interface InspectOptions {
  readonly inputShape?: number[][];
  readonly json?: boolean;
  readonly dot?: string;
  /** Optimise first and report each pass. */
  readonly passes?: boolean;
  readonly optLevel?: OptLevel;
}

function formatPasses(reports: readonly PassReport[]): string {
  const lines = ['passes:'];
  for (const r of reports) {
    lines.push(`  ${r.pass}: ${r.nodesBefore} -> ${r.nodesAfter} nodes${r.changes.length ? `, ${r.changes.length} change${r.changes.length > 1 ? 's' : ''}` : ''}`);
    for (const c of r.changes) lines.push(`    ${c.description}`);
  }
  return lines.join('\n');
}

export function inspectCommand(spec: string, options: InspectOptions): string {
  const graph: Graph = zooGraph(spec, { weights: false }) ?? fileGraph(spec, { weights: 'optional', inputShape: options.inputShape });
  validateGraph(graph);
  inferShapes(graph, defaultRegistry.bindAll(graph), options.inputShape);
  const reports = options.passes || options.optLevel !== undefined
    ? optimizeGraph(graph, defaultRegistry, { level: options.optLevel ?? DEFAULT_OPT_LEVEL, inputShapes: options.inputShape })
    : [];
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, options.inputShape);
  const summary = summarize(graph, ops);
  if (options.dot) writeFileSync(options.dot, toDot(graph));
  if (options.json) return JSON.stringify(options.passes ? { ...summary, passes: reports } : summary);
  const rows = summary.nodes.map((n) => [
    n.name,
    n.type,
    n.outputs.map((o) => formatShape(o.shape)).join(' ') || '-',
    n.params ? humanCount(n.params) : '-',
    n.macs ? humanCount(n.macs) : '-',
  ]);
  const t = summary.totals;
  return [
    ...(options.passes ? [formatPasses(reports), ''] : []),
    table(['name', 'type', 'outputs', 'params', 'MACs'], rows, [3, 4]),
    '',
    `${t.nodes} nodes, ${humanCount(t.params)} parameters (${t.params}), ${humanCount(t.macs)} multiply-accumulates`,
  ].join('\n');
}
