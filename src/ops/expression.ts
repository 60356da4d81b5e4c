// pnnx.Expression: an elementwise expression over its inputs (`add(@0,mul(@1,2))`), parsed once at load by
// src/expr; its shape rule types and broadcasts it, its reference is the expression evaluator.

import { NodeError } from '../errors.ts';
import { evaluateExpression, ExprError, inferExpression, parseExpression, type ParsedExpression } from '../expr/index.ts';
import type { Node } from '../graph/graph.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** Expression errors, re-raised naming the node (the expression and caret stay in the message). */
function withNode<T>(node: Node, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ExprError) throw new NodeError(node, `expr: ${e.message}`);
    throw e;
  }
}

export const expression: OpDef = {
  types: ['pnnx.Expression'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const raw = p.raw('expr');
    if (!raw || raw.kind !== 'string') p.fail('param expr is missing: expected an expression such as add(@0,@1)');
    const parsed: ParsedExpression = withNode(node, () =>
      parseExpression(raw.value, { inputCount: node.inputs.length, file: node.source?.file }));
    return {
      infer(inputs) {
        const t = withNode(node, () => inferExpression(parsed, inputs));
        return [{ shape: t.shape, dtype: t.dtype }];
      },
      macs: noMacs,
      reference: (inputs) => [withNode(node, () => evaluateExpression(parsed, [...inputs]))],
    };
  },
};
