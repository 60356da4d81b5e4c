// The .pnnx.param writer: the layout pnnx itself writes (type and name padded to 24 columns, params
// sorted by key, then @attributes, $input keys and #shape annotations), so that parse(print(g)) equals g.

import type { Annotation, Graph, Node, Value } from '../../graph/graph.ts';
import { DYNAMIC } from '../../tensor/shape.ts';
import { formatParamValue } from './param-value.ts';
import { PNNX_MAGIC } from './parse-param.ts';

function formatShapeAndType(a: Annotation): string {
  return `(${a.shape.map((d) => (d === DYNAMIC ? '?' : String(d))).join(',')})${a.dtype ?? 'null'}`;
}

const byKey = <T>(entries: Iterable<[string, T]>) =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

export interface PrintOptions {
  /** Annotate operands with inferred shapes where the file had none (default: only what the file had). */
  readonly inferredShapes?: boolean;
}

function annotationOf(v: Value, options: PrintOptions): Annotation | undefined {
  if (v.annotation) return v.annotation;
  if (options.inferredShapes && v.shape) return { shape: v.shape, dtype: v.dtype };
  return undefined;
}

export function printNodeLine(node: Node, options: PrintOptions = {}): string {
  const parts = [
    node.type.padEnd(24),
    node.name.padEnd(24),
    String(node.inputs.length),
    String(node.outputs.length),
    ...node.inputs.map((v) => v.name),
    ...node.outputs.map((v) => v.name),
  ];
  for (const [k, p] of byKey(node.params)) parts.push(`${k}=${formatParamValue(p)}`);
  for (const [k, w] of byKey(node.weights)) parts.push(`@${k}=${formatShapeAndType(w)}`);
  for (const [k, operand] of node.inputKeys) parts.push(`$${k}=${operand}`);
  const annotated = new Set<Value>();
  for (const v of [...node.inputs, ...node.outputs]) {
    const a = annotationOf(v, options);
    if (!a || annotated.has(v)) continue;
    annotated.add(v);
    parts.push(`#${v.name}=${formatShapeAndType(a)}`);
  }
  return parts.join(' ');
}

/** The graph as .pnnx.param text, nodes in their current order. */
export function printPnnxParam(graph: Graph, options: PrintOptions = {}): string {
  const operands = new Set<Value>();
  for (const n of graph.nodes) for (const v of [...n.inputs, ...n.outputs]) operands.add(v);
  const lines = [PNNX_MAGIC, `${graph.nodes.length} ${operands.size}`, ...graph.nodes.map((n) => printNodeLine(n, options))];
  return `${lines.join('\n')}\n`;
}
