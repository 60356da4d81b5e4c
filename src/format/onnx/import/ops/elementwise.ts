// Add Sub Mul Div Pow Max Min Sum Mean and the one-argument math functions → pnnx.Expression (the
// functions src/expr has), folded at load when every operand is a constant.
// Before opset 7, the binary ops broadcast only with `broadcast=1`, and an `axis` aligns B's dims with A's
// dims from that axis on (not from the right): B is reshaped with trailing 1s so numpy broadcasting agrees.

import { call, type Expr } from '../../../../expr/index.ts';
import { erf } from '../../../../tensor/math.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { constant, type Converter, type ImportContext, type OnnxNode, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { foldElementwise, isFloat } from '../fold.ts';
import { foldAffine } from './affine.ts';
import { chain, expression, unary, type ExprBuilder } from './expression.ts';

/** Python-style rounding of ONNX Round: halves to even. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Operands of a variadic or binary node, with B aligned at `axis` for the legacy broadcast form. */
function operandsOf(ctx: ImportContext, node: OnnxNode): Operand[] {
  const operands = node.inputs.filter((n) => n !== '').map((n) => ctx.get(n));
  const broadcast = node.attrs.int('broadcast', 0);
  const axis = node.attrs.int('axis');
  if (node.opset >= 7 || broadcast !== 1 || axis === undefined || operands.length !== 2) return operands;
  const [a, b] = operands as [Operand, Operand];
  const rankA = ctx.shapeOf(a).length;
  const bShape = ctx.shapeOf(b);
  const start = axis < 0 ? axis + rankA : axis;
  const trailing = rankA - start - bShape.length;
  if (trailing < 0) throw new Unsupported(`broadcast axis=${axis}: B (${bShape.join(',')}) does not fit A of rank ${rankA}`);
  if (trailing === 0) return operands;
  const shape = [...bShape, ...new Array<number>(trailing).fill(1)];
  if (b.kind !== 'const') throw new Unsupported(`legacy broadcast with axis=${axis} of a run-time B`);
  return [a, constant(new Tensor(b.tensor.dtype, shape, b.tensor.data))];
}

interface Spec {
  readonly build: ExprBuilder;
  /** The same function on numbers, for constant operands (`int`: both operands are integers). */
  readonly fold: (int: boolean) => (...x: number[]) => number;
  readonly minInputs?: number;
}

function elementwise(spec: Spec): Converter {
  return (ctx, node) => {
    const operands = operandsOf(ctx, node);
    if (operands.length < (spec.minInputs ?? 1)) throw new Unsupported(`needs at least ${spec.minInputs ?? 1} inputs`);
    if (operands.every((o) => o.kind === 'const')) {
      const tensors = operands.map((o) => (o as { tensor: Tensor }).tensor);
      ctx.set(node.outputs[0]!, constant(foldElementwise(tensors, spec.fold(!isFloat(tensors[0]!.dtype)))));
      return;
    }
    if (foldAffine(ctx, node, operands)) return;
    // Max, Min, Sum, Mean of one input are that input.
    if (operands.length === 1 && spec.minInputs === 1) {
      ctx.set(node.outputs[0]!, operands[0]!);
      return;
    }
    ctx.set(node.outputs[0]!, expression(ctx, operands, spec.build, node.outputs[0]));
  };
}

const binary = (fn: string, f: (a: number, b: number) => number, intF = f): Converter =>
  elementwise({ build: (args) => call(fn, args[0]!, args[1]!), fold: (int) => (int ? intF : f), minInputs: 2 });

const variadic = (fn: string, f: (a: number, b: number) => number): Converter =>
  elementwise({ build: chain(fn), fold: () => (...x) => x.reduce(f), minInputs: 1 });

const math = (fn: string, f: (x: number) => number): Converter => elementwise({ build: unary(fn), fold: () => f });

const mean: Converter = elementwise({
  build: (args) => call('div', chain('add')(args), { kind: 'float', value: args.length }),
  fold: () => (...x) => x.reduce((a, b) => a + b) / x.length,
  minInputs: 1,
});

export const ELEMENTWISE: ReadonlyArray<[string, Converter]> = [
  ['Add', binary('add', (a, b) => a + b)],
  ['Sub', binary('sub', (a, b) => a - b)],
  ['Mul', binary('mul', (a, b) => a * b)],
  ['Div', binary('div', (a, b) => a / b, (a, b) => Math.trunc(a / b))],
  ['Pow', binary('pow', (a, b) => a ** b)],
  ['Max', variadic('max', Math.max)],
  ['Min', variadic('min', Math.min)],
  ['Sum', variadic('add', (a, b) => a + b)],
  ['Mean', mean],
  ['Abs', math('abs', Math.abs)],
  ['Neg', math('neg', (x) => -x)],
  ['Sqrt', math('sqrt', Math.sqrt)],
  ['Exp', math('exp', Math.exp)],
  ['Log', math('log', Math.log)],
  ['Reciprocal', math('reciprocal', (x) => 1 / x)],
  ['Floor', math('floor', Math.floor)],
  ['Ceil', math('ceil', Math.ceil)],
  ['Round', math('round', roundHalfEven)],
  ['Sign', math('sign', Math.sign)],
  ['Sin', math('sin', Math.sin)],
  ['Cos', math('cos', Math.cos)],
  ['Tan', math('tan', Math.tan)],
  ['Asin', math('asin', Math.asin)],
  ['Acos', math('acos', Math.acos)],
  ['Atan', math('atan', Math.atan)],
  ['Sinh', math('sinh', Math.sinh)],
  ['Cosh', math('cosh', Math.cosh)],
  ['Asinh', math('asinh', Math.asinh)],
  ['Acosh', math('acosh', Math.acosh)],
  ['Atanh', math('atanh', Math.atanh)],
  ['Erf', math('erf', erf)],
];

/** Elementwise literal helpers for other converters. */
export const lit = (value: number): Expr => ({ kind: 'float', value: Math.fround(value) });
