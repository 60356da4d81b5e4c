// Expression tree back to PNNX text, with an explicit stack (safe at any nesting depth).

import { leafText, type Expr } from './ast.ts';

/** `add(@0,mul(@1,2))`: no spaces, as PNNX writes; parseExpression reads it back to the same tree. */
export function printExpression(root: Expr): string {
  const parts: string[] = [];
  // Pending work: a node to print, or literal punctuation to emit.
  const stack: (Expr | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    if (item.kind !== 'call' && item.kind !== 'list') {
      parts.push(leafText(item));
      continue;
    }
    const [open, close, children] = item.kind === 'call' ? [`${item.fn}(`, ')', item.args] : ['[', ']', item.items];
    parts.push(open);
    stack.push(close);
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i]!);
      if (i > 0) stack.push(',');
    }
  }
  return parts.join('');
}
