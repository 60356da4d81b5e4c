// Reshape and Flatten, kept shape-agnostic where ONNX is. The target is resolved at the bound input size and,
// for models with dynamic dims, at the probe's size (import.ts); comparing the two tells which output dims
// are fixed, which copy the input's dim at the same position, and which follow the input size otherwise.
// The first form that states the reshape for every input size wins:
//   1. Tensor.reshape with the fixed dims and at most one -1
//   2. torch.flatten(start_dim, end_dim): dims kept, one run merged
//   3. onnx.Reshape: fixed dims, 0 for copied dims, at most one -1 (ONNX's own semantics)
//   4. Tensor.reshape for this input size only (noted as specialised)

import { P } from '../../../../graph/param.ts';
import { numel, type Shape } from '../../../../tensor/shape.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { constant, type Converter, type ImportContext, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';

/** ONNX's reading of a target against an input shape: 0 copies (unless allowzero), one -1 infers. */
export function resolveTarget(target: readonly number[], input: Shape, allowZero: boolean): number[] {
  const shape = target.map((d, i) => (d === 0 && !allowZero ? input[i]! : d));
  const free = shape.indexOf(-1);
  if (free >= 0) {
    const known = shape.reduce((a, d, i) => (i === free ? a : a * d), 1);
    shape[free] = known === 0 ? 0 : numel(input) / known;
  }
  if (shape.some((d) => !Number.isInteger(d) || d < 0) || numel(shape) !== numel(input)) {
    throw new Unsupported(`target shape (${target.join(',')}) does not fit the input (${input.join(',')})`);
  }
  return shape;
}

/** torch.flatten's (start, end) if `out` is `input` with one run of dims merged, at both sizes. */
function flattenRun(in1: Shape, out1: readonly number[], in2: Shape, out2: readonly number[]): [number, number] | undefined {
  const merged = in1.length - out1.length;
  if (merged < 1 || in2.length !== in1.length) return undefined;
  for (let s = 0; s < out1.length; s++) {
    const e = s + merged;
    const fits = (inp: Shape, out: readonly number[]) =>
      out.every((d, i) => (i < s ? d === inp[i] : i === s ? d === numel(inp.slice(s, e + 1)) : d === inp[i + merged]));
    if (fits(in1, out1) && fits(in2, out2)) return [s, e];
  }
  return undefined;
}

/**
 * x reshaped to `out1` (its shape at the bound size); `in2`/`out2` are the input and output shapes at the
 * probe's size, when the model has dynamic dims.
 */
export function reshapeTo(ctx: ImportContext, x: Operand, out1: readonly number[], in2: Shape | undefined, out2: readonly number[] | undefined, out: string): Operand {
  if (x.kind === 'const') return constant(new Tensor(x.tensor.dtype, [...out1], x.tensor.data));
  const in1 = ctx.shapeOf(x);
  const [i2, o2] = in2 && out2 && out2.length === out1.length ? [in2, out2] : [in1, out1];
  const fixed = out1.map((d, i) => d === o2[i]);
  const loose = fixed.flatMap((f, i) => (f ? [] : [i]));
  const reshape = (shape: readonly number[]) => ctx.op1('Tensor.reshape', [x], { params: [['shape', P.ints(shape)]], outputs: [out] });
  if (loose.length <= 1) return reshape(out1.map((d, i) => (fixed[i] ? d : -1)));
  const run = flattenRun(in1, out1, i2, o2);
  if (run) return ctx.op1('torch.flatten', [x], { params: [['start_dim', P.int(run[0])], ['end_dim', P.int(run[1])]], outputs: [out] });
  const copies = loose.filter((i) => out1[i] === in1[i] && o2[i] === i2[i]);
  if (loose.length - copies.length <= 1 && !out1.some((d, i) => fixed[i] && d === 0)) {
    const target = out1.map((d, i) => (fixed[i] ? d : copies.includes(i) ? 0 : -1));
    return ctx.op1('onnx.Reshape', [x], { params: [['shape', P.ints(target)], ['allowzero', P.bool(false)]], outputs: [out] });
  }
  ctx.specialise(`reshape to (${out1.join(',')}) holds for this input size only`);
  return reshape(out1);
}

export const reshape: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const target = node.opset < 5 ? node.attrs.ints('shape', []) : ctx.numbersInput(node, 1, 'the target shape')!;
  const allowZero = node.attrs.int('allowzero', 0) === 1;
  const out1 = resolveTarget(target, ctx.shapeOf(x), allowZero);
  const probeX = ctx.probe(node.inputs[0]!);
  const probeTarget = node.opset < 5 ? target : ctx.probe(node.inputs[1]!)?.values;
  const out2 = probeX && probeTarget ? resolveTarget(probeTarget, probeX.shape, allowZero) : undefined;
  ctx.set(node.outputs[0]!, reshapeTo(ctx, x, out1, probeX?.shape, out2, node.outputs[0]!));
};

/** ONNX Flatten: (prod(dims before axis), prod(dims from axis)), always 2-D. */
export const flatten: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  const raw = node.attrs.int('axis', 1);
  const axis = raw < 0 ? raw + shape.length : raw;
  if (axis < 0 || axis > shape.length) throw new Unsupported(`axis=${raw} for an input of rank ${shape.length}`);
  const two = (s: Shape) => [numel(s.slice(0, axis)), numel(s.slice(axis))];
  const probe = ctx.probe(node.inputs[0]!)?.shape;
  ctx.set(node.outputs[0]!, reshapeTo(ctx, x, two(shape), probe, probe ? two(probe) : undefined, node.outputs[0]!));
};
