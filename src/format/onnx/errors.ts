// Export failures. Nodes that ONNX cannot express are collected over the whole graph and reported in one
// OnnxExportError, so that a user sees every blocker at once instead of fixing them one run at a time.

import { describeNode, FlowinferError } from '../../errors.ts';
import type { Graph, Node } from '../../graph/graph.ts';

/** One node the exporter cannot write, and why. */
export interface ExportProblem {
  readonly node: Node;
  readonly reason: string;
}

/** The graph holds nodes without an ONNX equivalent; `problems` lists every one (type, name, reason). */
export class OnnxExportError extends FlowinferError {
  override name = 'OnnxExportError';
  constructor(graph: Graph, readonly problems: readonly ExportProblem[]) {
    const lines = problems.map(({ node, reason }) =>
      `  ${describeNode({ type: node.type, name: node.name, index: graph.indexOf(node), source: node.source })}: ${reason}`);
    super(`cannot export ${graph.file} to ONNX: ${problems.length} node${problems.length === 1 ? ' has' : 's have'} no ONNX equivalent:\n${lines.join('\n')}`);
  }
}

/** Thrown by an op's exporter when its params have no ONNX form; caught and collected by exportOnnx. */
export class Inexpressible extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
