// The expression tree, its post-order (reverse-Polish) listing and structural equality.
// Every walk here keeps its own stack: expressions nest 10,000 deep without touching the call stack.

/** 0-based [start, end) offsets into the expression text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

interface Located {
  /** Where the node was written; absent on trees built in code. */
  readonly span?: Span;
}

/** `@N`: the N-th input operand of the node. */
export interface OperandNode extends Located { readonly kind: 'operand'; readonly index: number }
export interface IntNode extends Located { readonly kind: 'int'; readonly value: number }
export interface FloatNode extends Located { readonly kind: 'float'; readonly value: number }
/** `2.0+3.0j`: parsed and printed, but not computed (the engine has no complex values). */
export interface ComplexNode extends Located { readonly kind: 'complex'; readonly re: number; readonly im: number }
export interface BoolNode extends Located { readonly kind: 'bool'; readonly value: boolean }
export interface NoneNode extends Located { readonly kind: 'none' }
/** `fn(args...)`; the parser has checked the name and the argument count. */
export interface CallNode extends Located { readonly kind: 'call'; readonly fn: string; readonly args: readonly Expr[] }
/** `[items...]`: a shape list such as `[1,-1,int(size(@0,2))]`. */
export interface ListNode extends Located { readonly kind: 'list'; readonly items: readonly Expr[] }

export type Expr = OperandNode | IntNode | FloatNode | ComplexNode | BoolNode | NoneNode | CallNode | ListNode;
export type Leaf = Exclude<Expr, CallNode | ListNode>;

export const operand = (index: number): OperandNode => ({ kind: 'operand', index });
export const int = (value: number): IntNode => ({ kind: 'int', value });
export const float = (value: number): FloatNode => ({ kind: 'float', value });
export const complex = (re: number, im: number): ComplexNode => ({ kind: 'complex', re, im });
export const bool = (value: boolean): BoolNode => ({ kind: 'bool', value });
export const none = (): NoneNode => ({ kind: 'none' });
export const call = (fn: string, ...args: Expr[]): CallNode => ({ kind: 'call', fn, args });
export const list = (...items: Expr[]): ListNode => ({ kind: 'list', items });

export function childrenOf(node: Expr): readonly Expr[] {
  if (node.kind === 'call') return node.args;
  if (node.kind === 'list') return node.items;
  return [];
}

/**
 * The nodes in post-order: every argument before its function, arguments left to right.
 * This is the reverse-Polish form a stack machine runs: `add(@0,mul(@1,@2))` → `@0 @1 @2 mul add`.
 */
export function postorder(root: Expr): Expr[] {
  const out: Expr[] = [];
  const stack: { node: Expr; next: number }[] = [{ node: root, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const children = childrenOf(top.node);
    if (top.next < children.length) stack.push({ node: children[top.next++]!, next: 0 });
    else out.push(stack.pop()!.node);
  }
  return out;
}

/** One reverse-Polish token: leaves as written, functions as their name, lists as `[n]` (n items). */
export function rpnToken(node: Expr): string {
  switch (node.kind) {
    case 'call': return node.fn;
    case 'list': return `[${node.items.length}]`;
    default: return leafText(node);
  }
}

/** `@0 @1 @2 mul add` */
export function formatRPN(nodes: readonly Expr[]): string {
  return nodes.map(rpnToken).join(' ');
}

/** A leaf as PNNX writes it. */
export function leafText(node: Leaf): string {
  switch (node.kind) {
    case 'operand': return `@${node.index}`;
    case 'int': return String(node.value);
    case 'float': return formatFloat(node.value);
    case 'complex': return `${formatFloat(node.re)}${node.im < 0 || Object.is(node.im, -0) ? '-' : '+'}${formatFloat(Math.abs(node.im))}j`;
    case 'bool': return node.value ? 'True' : 'False';
    case 'none': return 'None';
  }
}

/**
 * The shortest text that reads back as the same float: `0.5`, `1e-7`, `2.0` (integral floats keep
 * a `.0` so they stay floats, as PNNX writes them), `inf`, `-inf`, `nan`, `-0.0`.
 */
export function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** Structural equality ignoring spans; floats compare like Object.is (NaN equals NaN, -0 differs from 0). */
export function sameExpr(a: Expr, b: Expr): boolean {
  const stack: [Expr, Expr][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x.kind !== y.kind) return false;
    switch (x.kind) {
      case 'call': {
        const other = y as CallNode;
        if (x.fn !== other.fn || x.args.length !== other.args.length) return false;
        x.args.forEach((arg, i) => stack.push([arg, other.args[i]!]));
        break;
      }
      case 'list': {
        const other = y as ListNode;
        if (x.items.length !== other.items.length) return false;
        x.items.forEach((item, i) => stack.push([item, other.items[i]!]));
        break;
      }
      default:
        // Leaf texts are exact: formatFloat round-trips every double, NaN and -0 included.
        if (leafText(x) !== leafText(y as Leaf)) return false;
    }
  }
  return true;
}

/** A copy of `root` with every operand `@i` replaced by `replace(i)` (iterative: deep trees are fine). */
export function substituteOperands(root: Expr, replace: (index: number) => Expr): Expr {
  const stack: Expr[] = [];
  for (const node of postorder(root)) {
    if (node.kind === 'operand') stack.push(replace(node.index));
    else if (node.kind === 'call') stack.push(call(node.fn, ...stack.splice(stack.length - node.args.length)));
    else if (node.kind === 'list') stack.push(list(...stack.splice(stack.length - node.items.length)));
    else stack.push(node);
  }
  return stack[0]!;
}
