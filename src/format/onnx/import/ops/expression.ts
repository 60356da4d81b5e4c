// Elementwise ONNX ops as one pnnx.Expression node each (the elementwise-fusion pass later merges chains).
// Operands are numbered in order; a constant holding one value (and not raising the result's rank) is
// written as a literal, any other constant becomes a pnnx.Attribute operand. ONNX's multidirectional
// broadcasting is numpy's, which is what pnnx.Expression does.

import { call, float, operand, printExpression, type Expr } from '../../../../expr/index.ts';
import { P } from '../../../../graph/param.ts';
import { tensorNumbers } from '../tensor.ts';
import { isFloat } from '../fold.ts';
import { Unsupported } from '../errors.ts';
import type { ImportContext, Operand } from '../context.ts';

/** Builds the expression from one leaf per operand (an `@i` or a literal). */
export type ExprBuilder = (args: readonly Expr[]) => Expr;

/**
 * `build` over `operands` as a pnnx.Expression whose output takes the ONNX name `out` (if given).
 * The caller folds all-constant cases first (fold.ts keeps ONNX's integer typing).
 */
export function expression(ctx: ImportContext, operands: readonly Operand[], build: ExprBuilder, out?: string, suffix?: string): Operand {
  const valueRank = Math.max(0, ...operands.filter((o) => o.kind === 'value').map((o) => ctx.shapeOf(o).length));
  const inputs: Operand[] = [];
  const leaves = operands.map((o): Expr => {
    if (o.kind === 'const' && o.tensor.size === 1 && o.tensor.shape.length <= valueRank) {
      const v = tensorNumbers(o.tensor)[0]!;
      return float(isFloat(o.tensor.dtype) ? Math.fround(v) : v);
    }
    if (o.kind === 'value' && o.value.dtype !== 'f32') {
      throw new Unsupported(`operand "${o.value.name}" is ${o.value.dtype} at run time; elementwise math runs on float32 tensors`);
    }
    const at = inputs.findIndex((p) => sameOperand(p, o));
    if (at >= 0) return operand(at);
    inputs.push(o);
    return operand(inputs.length - 1);
  });
  const text = printExpression(build(leaves));
  return ctx.op1('pnnx.Expression', inputs, { params: [['expr', P.string(text)]], outputs: out ? [out] : 1, suffix });
}

export const sameOperand = (a: Operand, b: Operand): boolean =>
  a.kind === 'value' ? b.kind === 'value' && a.value === b.value : b.kind === 'const' && a.tensor === b.tensor;

/** `fn(a, b)` chained left to right over two or more leaves: sum(a,b,c) = add(add(a,b),c). */
export const chain = (fn: string) => (args: readonly Expr[]): Expr => args.slice(1).reduce((acc, x) => call(fn, acc, x), args[0]!);

/** One-argument function. */
export const unary = (fn: string) => (args: readonly Expr[]): Expr => call(fn, args[0]!);
