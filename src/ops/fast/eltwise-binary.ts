// A pnnx.Expression that is exactly one binary op of two operands (`add(@0,@1)`, `mul(@1,@0)`,
// `sub(@0,2)`) on the f32_binary_rows kernel. Broadcasting patterns covered, with the output's layout:
//   same shape                       both operands rows alike (contiguous: one span)
//   per-channel (n|1,C,1,1) vs NHWC  a C-vector per pixel, per sample when n > 1
//   one sample (1,C,H,W) vs (N,...)  the same pixels again for each sample
//   row vector (1,..,1,L) vs plain   the same L floats for each row of L
//   scalar (numel 1) or a constant   one float splat over everything
// The broadcast operand becomes the kernel's B; when it is the first one, sub and div take their
// reversed forms. Anything else (both operands broadcast, plain storage against NHWC) stays on
// expression.ts.

import type { CallNode, Expr } from '../../expr/ast.ts';
import { parseExpression } from '../../expr/index.ts';
import type { Node, Value } from '../../graph/graph.ts';
import { BIN_PARAMS_BYTES } from '../../kernels/abi.ts';
import { writeBinaryParams, type BinaryCall, type BinaryOp, type BinaryOperand } from '../../kernels/eltwise.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import type { TensorView } from '../../runtime/fast/views.ts';
import { numel, sameShape } from '../../tensor/shape.ts';
import { f32Only, isDense, rangeStep, rowsOf, unplannedView } from './eltwise-range.ts';

/** Expression function names and the kernel op each maps to (torch.maximum = max: NaN wins). */
const FUNCTIONS: Readonly<Record<string, BinaryOp>> = { add: 'add', sub: 'sub', mul: 'mul', div: 'div', max: 'max', maximum: 'max', min: 'min', minimum: 'min' };
const REVERSED: Readonly<Record<BinaryOp, BinaryOp>> = { add: 'add', sub: 'rsub', mul: 'mul', div: 'rdiv', max: 'max', min: 'min', rsub: 'sub', rdiv: 'div' };

/** A tensor operand at an absolute byte offset, or a constant. */
export type Operand = { readonly view: TensorView; readonly at: number } | { readonly constant: number };

/** How an operand reads against the output, as the kernel's B; undefined if no pattern fits. */
function asB(x: Operand, out: TensorView): BinaryOperand | 'full' | undefined {
  if ('constant' in x) return { constant: x.constant };
  const v = x.view;
  const s = v.shape;
  const o = out.shape;
  if (sameShape(s, o) && v.layout === out.layout) return 'full';
  if (numel(s) === 1) return { at: x.at, stride: 0, group: 1, groupStride: 0, splat: true };
  if (out.layout === 'nhwc') {
    const [n, c, h, w] = o as [number, number, number, number];
    // Per-channel: (n|1, C, 1, 1) stored NHWC (pixel n at n * pixelStride), or (C,1,1) / (1,C,1,1) plain.
    const padded = [...new Array<number>(Math.max(0, 4 - s.length)).fill(1), ...s];
    if (s.length <= 4 && padded[1] === c && padded[2] === 1 && padded[3] === 1 && (padded[0] === 1 || padded[0] === n) && (s.length >= 3)) {
      const perSample = padded[0] === n && n > 1;
      const sampleStride = v.layout === 'nhwc' ? v.pixelStride : c;
      return { at: x.at, stride: 0, group: h * w, groupStride: perSample ? sampleStride : 0, splat: false };
    }
    // One sample against a batch: (1, C, H, W) NHWC.
    if (v.layout === 'nhwc' && s[0] === 1 && s[1] === c && s[2] === h && s[3] === w) {
      return { at: x.at, stride: v.pixelStride, group: h * w, groupStride: 0, splat: false };
    }
    return undefined;
  }
  // Plain: a row vector (1, ..., 1, L) or (L) against rows of L.
  const last = o[o.length - 1];
  if (s.length >= 1 && s.length <= o.length && s[s.length - 1] === last && numel(s) === last && isDense(v)) {
    return { at: x.at, stride: 0, group: numel(o) / last!, groupStride: 0, splat: false };
  }
  return undefined;
}

const isTensor = (x: Operand): x is { readonly view: TensorView; readonly at: number } => !('constant' in x);

/** The kernel call for out = a op b, or undefined when the pattern is not covered. */
export function planBinary(op: BinaryOp, a: Operand, b: Operand, out: TensorView, outAt: number): BinaryCall | undefined {
  // The full-shaped operand is the kernel's A; the broadcast (or constant) one goes second as B.
  const swap = asB(a, out) !== 'full';
  const [first, second] = swap ? [b, a] : [a, b];
  const kernelOp = swap ? REVERSED[op] : op;
  const bb = asB(second, out);
  if (!isTensor(first) || asB(first, out) !== 'full' || bb === undefined) return undefined;
  const rows = rowsOf(out);
  const dense = isDense(first.view) && isDense(out);
  if (bb === 'full' && isTensor(second)) {
    if (dense && isDense(second.view)) {
      // All three contiguous: one span of every float, split anywhere.
      const count = numel(out.shape);
      return { a: { at: first.at, stride: 1 }, b: { at: second.at, stride: 1, group: count, groupStride: count, splat: false }, y: { at: outAt, stride: 1 }, rows: count, c: 1, op: kernelOp };
    }
    const bStride = rowsOf(second.view).stride;
    return {
      a: { at: first.at, stride: rowsOf(first.view).stride }, b: { at: second.at, stride: bStride, group: rows.rows, groupStride: rows.rows * bStride, splat: false },
      y: { at: outAt, stride: rows.stride }, rows: rows.rows, c: rows.cols, op: kernelOp,
    };
  }
  if (bb === 'full') return undefined;
  if (('constant' in bb || bb.splat) && dense) {
    const count = numel(out.shape);
    return { a: { at: first.at, stride: 1 }, b: bb, y: { at: outAt, stride: 1 }, rows: count, c: 1, op: kernelOp };
  }
  return { a: { at: first.at, stride: rowsOf(first.view).stride }, b: bb, y: { at: outAt, stride: rows.stride }, rows: rows.rows, c: rows.cols, op: kernelOp };
}

/** `fn(x, y)` with fn a covered binary and each argument an operand or a number; else undefined. */
function matchBinary(root: Expr): { op: BinaryOp; args: [Expr, Expr] } | undefined {
  if (root.kind !== 'call' || root.args.length !== 2) return undefined;
  const op = FUNCTIONS[(root as CallNode).fn];
  const [x, y] = root.args as [Expr, Expr];
  const leaf = (e: Expr) => e.kind === 'operand' || e.kind === 'int' || e.kind === 'float';
  if (!op || !leaf(x) || !leaf(y) || (x.kind !== 'operand' && y.kind !== 'operand')) return undefined;
  return { op, args: [x, y] };
}

export function lowerBinaryExpression(node: Node): Lowered | undefined {
  const out = node.outputs[0]!;
  if (node.outputs.length !== 1 || !f32Only(out, ...node.inputs)) return undefined;
  const text = node.params.get('expr');
  if (text?.kind !== 'string') return undefined;
  const matched = matchBinary(parseExpression(text.value, { inputCount: node.inputs.length }).root);
  if (!matched) return undefined;
  const plan = (view: (v: Value) => TensorView, base: number): BinaryCall | undefined => {
    // Constants are float32 in the compiled expression too (PyTorch casts a Python scalar to the tensor's dtype).
    const operand = (e: Expr): Operand => {
      if (e.kind !== 'operand') return { constant: Math.fround((e as { value: number }).value) };
      const v = view(node.inputs[e.index]!);
      return { view: v, at: base + v.offset };
    };
    const outView = view(out);
    return planBinary(matched.op, operand(matched.args[0]), operand(matched.args[1]), outView, base + outView.offset);
  };
  // The pattern depends only on shapes and layouts: check it now, on views at offset 0.
  if (!plan(unplannedView, 0)) return undefined;
  return {
    stridedViews: true,
    build(ctx) {
      const first = plan(ctx.view, ctx.slotBases[0]!);
      if (!first) throw new Error(`${label(node)}: the planned views do not fit the binary kernel`);
      return rangeStep(ctx, label(node), 'f32_binary_rows', first.rows, first.c * 12, BIN_PARAMS_BYTES, (at, base) =>
        writeBinaryParams(ctx.arena.memory, at, plan(ctx.view, base)!));
    },
  };
}
