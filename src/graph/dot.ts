// Graphviz DOT text of a graph: one box per node (type, name, output shapes), one edge per operand use.

import { formatShape } from '../tensor/shape.ts';
import type { Graph } from './graph.ts';

const quote = (s: string) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

export function toDot(graph: Graph): string {
  const ids = new Map(graph.nodes.map((n, i) => [n, `n${i}`]));
  const lines = ['digraph flowinfer {', '  rankdir=TB;', '  node [shape=box, fontname="Helvetica", fontsize=10];'];
  for (const node of graph.nodes) {
    const shapes = node.outputs.map((v) => (v.shape ? formatShape(v.shape) : '?')).join(' ');
    const style = node.type === 'pnnx.Input' || node.type === 'pnnx.Output' ? ', style=rounded' : '';
    lines.push(`  ${ids.get(node)} [label=${quote(`${node.type}\n${node.name}${shapes ? `\n${shapes}` : ''}`)}${style}];`);
  }
  for (const node of graph.nodes) {
    for (const v of node.inputs) {
      if (v.producer) lines.push(`  ${ids.get(v.producer)} -> ${ids.get(node)} [label=${quote(v.name)}];`);
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
