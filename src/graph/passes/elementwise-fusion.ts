// Elementwise fusion: an expression whose output only feeds another expression is inlined into it, so a
// chain or tree of elementwise ops becomes one expression, evaluated in one pass over memory by one fused
// kernel. `mul(@0,2)` feeding `add(@0,@1)` becomes `add(mul(@0,2),@1)`.

import { operand, parseExpression, printExpression, substituteOperands } from '../../expr/index.ts';
import type { Node, Value } from '../graph.ts';
import { P } from '../param.ts';
import type { Pass } from './pass.ts';
import { describe, soleConsumer } from './util.ts';

/** The expression text of a pnnx.Expression node, else undefined. */
function exprText(n: Node): string | undefined {
  const p = n.params.get('expr');
  return n.type === 'pnnx.Expression' && p?.kind === 'string' ? p.value : undefined;
}

export const fuseElementwise: Pass = {
  name: 'fuse-elementwise',
  minLevel: 2,
  run(graph) {
    const changes = [];
    // One merge at a time, then look again: each merge removes nodes the scan would otherwise revisit.
    for (let merged = true; merged;) {
      merged = false;
      for (const inner of graph.nodes) {
        const innerText = exprText(inner);
        if (innerText === undefined || inner.outputs.length !== 1 || inner.outputs[0]!.dtype !== 'f32') continue;
        const outer = soleConsumer(inner.outputs[0]!);
        const outerText = outer && exprText(outer);
        if (!outer || outerText === undefined) continue;
        const innerExpr = parseExpression(innerText, { inputCount: inner.inputs.length }).root;
        const outerExpr = parseExpression(outerText, { inputCount: outer.inputs.length }).root;
        // New operand list: outer's inputs without the inner result, then inner's inputs not already there.
        const inputs: Value[] = outer.inputs.filter((v) => v !== inner.outputs[0]);
        for (const v of inner.inputs) if (!inputs.includes(v)) inputs.push(v);
        const innerMapped = substituteOperands(innerExpr, (i) => operand(inputs.indexOf(inner.inputs[i]!)));
        const fused = substituteOperands(outerExpr, (i) =>
          outer.inputs[i] === inner.outputs[0] ? innerMapped : operand(inputs.indexOf(outer.inputs[i]!)));
        const text = printExpression(fused);
        // Keep the node order topological: the fused node takes outer's place.
        const at = graph.nodes.indexOf(outer) - (graph.nodes.indexOf(inner) < graph.nodes.indexOf(outer) ? 1 : 0);
        graph.removeNode(outer);
        graph.removeNode(inner);
        const replacement = graph.addNode({
          type: 'pnnx.Expression', name: outer.name, inputs, outputs: [outer.outputs[0]!], params: [['expr', P.string(text)]], source: outer.source,
        }, at);
        changes.push({ description: `fused ${describe(inner)} into ${describe(replacement)}: ${text}` });
        merged = true;
        break;
      }
    }
    return changes;
  },
};
