// Running a sequence of passes: in order, skipping those above the level or disabled, refusing one whose
// required passes did not run, and checking the graph (validation and shape inference) after each pass.

import { FlowinferError } from '../../errors.ts';
import type { Graph } from '../graph.ts';
import { inferShapes, type InputShapes } from '../shapes.ts';
import { validateGraph } from '../validate.ts';
import type { Pass, PassContext, PassReport } from './pass.ts';

export function runPasses(graph: Graph, passes: readonly Pass[], ctx: PassContext, inputShapes?: InputShapes): PassReport[] {
  const reports: PassReport[] = [];
  const ran = new Set<string>();
  for (const pass of passes) {
    if (pass.minLevel > ctx.level || ctx.disabled.has(pass.name)) continue;
    const missing = (pass.requires ?? []).filter((r) => !ran.has(r) && !ctx.disabled.has(r));
    if (missing.length) throw new FlowinferError(`pass ${pass.name} requires ${missing.join(', ')}, which did not run`);
    const nodesBefore = graph.nodes.length;
    const changes = pass.run(graph, ctx);
    ran.add(pass.name);
    graph.pruneValues();
    try {
      validateGraph(graph);
      inferShapes(graph, ctx.registry.bindAll(graph), inputShapes);
    } catch (e) {
      throw new FlowinferError(`the graph is invalid after pass ${pass.name}: ${(e as Error).message}`);
    }
    const report = { pass: pass.name, nodesBefore, nodesAfter: graph.nodes.length, changes };
    if (ctx.trace) {
      process.stderr.write(`[flowinfer] pass ${pass.name}: ${nodesBefore} -> ${report.nodesAfter} nodes\n`);
      for (const c of changes) process.stderr.write(`[flowinfer]   ${c.description}\n`);
    }
    reports.push(report);
  }
  return reports;
}
