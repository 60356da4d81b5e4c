// Recursive-descent parser for pnnx.Expression, with the recursion kept on an explicit stack of
// open calls and lists, so 10,000 nested calls parse without growing the JavaScript call stack.
//
//   expr := NAME '(' expr (',' expr)* ')' | '[' (expr (',' expr)*)? ']' | '@'N | INT | FLOAT | COMPLEX
//         | 'None' | 'True' | 'False'

import type { CallNode, Expr, Leaf, ListNode } from './ast.ts';
import { postorder } from './ast.ts';
import { printExpression } from './print.ts';
import { ExprError, quote } from './error.ts';
import { closestFunction, lookupFunction } from './functions.ts';
import { tokenize, type Token } from './lexer.ts';

/** A parsed expression: its text (for error carets), tree, reverse-Polish order and operand count. */
export interface ParsedExpression {
  readonly text: string;
  readonly root: Expr;
  /** Post-order (reverse-Polish) listing of `root`. */
  readonly postorder: readonly Expr[];
  /** 1 + the highest `@N` used, 0 when the expression reads no operand. */
  readonly inputCount: number;
  /** The label error messages start with. */
  readonly file: string;
}

/** What the evaluator, shape rule and compiler accept: text, a parsed expression, or a tree built in code. */
export type ExpressionInput = string | ParsedExpression | Expr;

export function toParsed(input: ExpressionInput): ParsedExpression {
  if (typeof input === 'string') return parseExpression(input);
  if ('root' in input) return input;
  // A tree built in code has no spans; its printed text gives error messages something to point at.
  return parseExpression(printExpression(input));
}

export interface ParseOptions {
  /** How many inputs the node has; an `@N` at or beyond it is an error at parse time. */
  readonly inputCount?: number;
  /** The label error messages start with (default `<expr>`), e.g. the param file and node name. */
  readonly file?: string;
}

/** An open call or list whose arguments are being read. */
interface Frame {
  readonly open: Token;
  readonly fn?: string;
  readonly args: Expr[];
}

export function parseExpression(text: string, options: ParseOptions = {}): ParsedExpression {
  const file = options.file ?? '<expr>';
  const tokens = tokenize(text, file);
  const fail = (at: Token | undefined, problem: string, expected: string, found = quote(at?.text)): never => {
    const start = at?.start ?? text.length;
    throw new ExprError(text, start, at?.end ?? start, problem, found, expected, file);
  };
  if (tokens.length === 0) fail(undefined, 'empty expression', 'an expression such as add(@0,@1)');

  let pos = 0;
  const stack: Frame[] = [];
  let root: Expr | undefined;

  while (root === undefined) {
    // Read the start of one expression: a leaf completes it, a call or list opens a frame.
    const token = tokens[pos++];
    let value: Expr | undefined;
    if (token === undefined) {
      const open = stack[stack.length - 1];
      fail(token, 'unexpected end', open ? `an expression, then '${closerOf(open)}' to close ${describe(open)}` : 'an expression');
    } else if (token.kind === 'name') {
      const info = lookupFunction(token.text);
      if (info === undefined) {
        const near = closestFunction(token.text);
        fail(token, 'unknown function', `a known function${near ? ` (did you mean '${near}'?)` : ' such as add, mul, sqrt, size, int or torch.float'}`);
      }
      const paren = tokens[pos++];
      if (paren?.kind !== '(') fail(paren, 'bad call', `'(' after '${token.text}'`);
      stack.push({ open: token, fn: token.text, args: [] });
    } else if (token.kind === '[') {
      if (tokens[pos]?.kind === ']') value = { kind: 'list', items: [], span: { start: token.start, end: tokens[pos++]!.end } };
      else stack.push({ open: token, args: [] });
    } else {
      value = leaf(token) ?? fail(token, 'unexpected token', 'an expression');
    }

    // Hand each finished expression to the frame that waits for it, closing frames as their bracket comes.
    while (value !== undefined) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) {
        root = value;
        break;
      }
      frame.args.push(value);
      value = undefined;
      const next = tokens[pos++];
      const closer = closerOf(frame);
      if (next?.kind === ',') break; // the frame wants another argument
      if (next?.kind !== closer) {
        fail(next, next === undefined || next.kind === ')' || next.kind === ']' ? 'unbalanced brackets' : 'bad argument list',
          `',' or '${closer}' to close ${describe(frame)}`);
      }
      stack.pop();
      const span = { start: frame.open.start, end: next!.end };
      value = frame.fn === undefined
        ? ({ kind: 'list', items: frame.args, span } satisfies ListNode)
        : checkCall({ kind: 'call', fn: frame.fn, args: frame.args, span }, frame.open, text, fail);
    }
  }

  if (pos < tokens.length) {
    const extra = tokens[pos]!;
    fail(extra, extra.kind === ')' || extra.kind === ']' ? 'unbalanced brackets' : 'trailing text', 'end of expression');
  }
  const nodes = postorder(root);
  let inputCount = 0;
  for (const node of nodes) {
    if (node.kind !== 'operand') continue;
    if (options.inputCount !== undefined && node.index >= options.inputCount) {
      throw operandOutOfRange(text, node.index, options.inputCount, node.span?.start ?? 0, node.span?.end ?? 0, file);
    }
    inputCount = Math.max(inputCount, node.index + 1);
  }
  return { text, root, postorder: nodes, inputCount, file };
}

export function operandOutOfRange(text: string, index: number, inputs: number, start: number, end: number, file?: string): ExprError {
  const expected = inputs === 0 ? 'no operand (the node has no inputs)' : `@0 to @${inputs - 1} (the node has ${inputs} input${inputs > 1 ? 's' : ''})`;
  return new ExprError(text, start, end, 'operand out of range', `@${index}`, expected, file);
}

const closerOf = (frame: Frame): ')' | ']' => (frame.fn === undefined ? ']' : ')');
const describe = (frame: Frame): string =>
  `${frame.fn === undefined ? "the list '['" : `'${frame.fn}('`} opened at column ${frame.open.start + 1}`;

function leaf(token: Token): Leaf | undefined {
  const span = { start: token.start, end: token.end };
  switch (token.kind) {
    case 'operand': return { kind: 'operand', index: token.value, span };
    case 'int': return { kind: 'int', value: token.value, span };
    case 'float': return { kind: 'float', value: token.value, span };
    case 'complex': return { kind: 'complex', re: token.re, im: token.im, span };
    case 'true': return { kind: 'bool', value: true, span };
    case 'false': return { kind: 'bool', value: false, span };
    case 'none': return { kind: 'none', span };
    default: return undefined;
  }
}

type ParseFail = (at: Token | undefined, problem: string, expected: string, found?: string) => never;

/** Argument count, and size()'s shape: `size(@i)` or `size(@i,d)` with a literal d. */
function checkCall(node: CallNode, name: Token, text: string, fail: ParseFail): CallNode {
  const info = lookupFunction(node.fn)!;
  const n = node.args.length;
  if (n < info.minArgs || n > info.maxArgs) {
    const range = info.minArgs === info.maxArgs ? `${info.minArgs}` : `${info.minArgs} or ${info.maxArgs}`;
    fail(name, 'wrong number of arguments', `${range} argument${info.maxArgs > 1 ? 's' : ''} for ${node.fn}`, `${n}`);
  }
  if (info.family === 'size') {
    const [target, dim] = node.args;
    if (target!.kind !== 'operand') fail(tokenAt(target!, text), 'bad size()', 'an operand @N as the first argument of size');
    if (dim !== undefined && dim.kind !== 'int') fail(tokenAt(dim, text), 'bad size()', 'an integer dimension as the second argument of size');
  }
  return node;
}

/** A token-like stand-in locating an argument for an error. */
function tokenAt(node: Expr, text: string): Token {
  const start = node.span?.start ?? 0;
  const end = node.span?.end ?? start;
  const written = end - start > 40 ? `${text.slice(start, start + 37)}...` : text.slice(start, end);
  return { kind: 'name', text: written, start, end };
}
