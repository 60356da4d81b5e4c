// Nodes that are known at load or move nothing: Constant, ConstantOfShape, Shape, Size, Range, Cast of
// constants and the comparisons and logic of shape subgraphs fold to constants (a Shape reads the size the
// graph is translated for; the probe translation tells converters where that matters). Identity, Dropout
// and float-to-float Casts of run-time tensors pass their input through. Where picks between tensors.

import { allocate } from '../../../../tensor/dtype.ts';
import { numel } from '../../../../tensor/shape.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { constant, type Converter, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { castTensor, foldElementwise, i64, isFloat, tensorOf } from '../fold.ts';
import { dtypeOfElementType, tensorNumbers } from '../tensor.ts';

const constantNode: Converter = (ctx, node) => {
  const { attrs } = node;
  const t = attrs.tensor('value');
  let out: Tensor | undefined = t;
  if (!out && attrs.has('value_float')) out = tensorOf('f32', [], [attrs.float('value_float', 0)]);
  if (!out && attrs.has('value_floats')) out = Tensor.f32([attrs.floats('value_floats')!.length], attrs.floats('value_floats')!);
  if (!out && attrs.has('value_int')) out = tensorOf('i64', [], [attrs.int('value_int', 0)]);
  if (!out && attrs.has('value_ints')) out = i64(attrs.ints('value_ints', []));
  if (!out) throw new Unsupported('only tensor, float(s) and int(s) values are supported (not sparse tensors or strings)');
  ctx.set(node.outputs[0]!, constant(out));
};

const constantOfShape: Converter = (ctx, node) => {
  const shape = ctx.numbersInput(node, 0, 'the shape')!;
  const value = node.attrs.tensor('value');
  const fill = value ? tensorNumbers(value)[0] ?? 0 : 0;
  const dtype = value && value.dtype !== 'f16' && value.dtype !== 'bf16' ? value.dtype : 'f32';
  const data = allocate(dtype, numel(shape));
  if (data instanceof BigInt64Array) data.fill(BigInt(fill));
  else data.fill(fill);
  ctx.set(node.outputs[0]!, constant(new Tensor(dtype, shape, data)));
};

const shapeNode: Converter = (ctx, node) => {
  const shape = ctx.shapeOf(ctx.get(node.inputs[0]!));
  const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + shape.length : v, 0), shape.length);
  const start = clamp(node.attrs.int('start', 0));
  const end = node.attrs.has('end') ? clamp(node.attrs.int('end', shape.length)) : shape.length;
  ctx.set(node.outputs[0]!, constant(i64(shape.slice(start, end))));
};

const size: Converter = (ctx, node) => {
  ctx.set(node.outputs[0]!, constant(tensorOf('i64', [], [numel(ctx.shapeOf(ctx.get(node.inputs[0]!)))])));
};

const FLOAT_TYPES = new Set(['f32', 'f64', 'f16', 'bf16']);

function castTo(to: number | undefined): ReturnType<typeof dtypeOfElementType> {
  const dtype = to === undefined ? undefined : dtypeOfElementType(to);
  if (!dtype) throw new Unsupported(`to=${to}: not a real element type`);
  return dtype;
}

const castOperand = (o: Operand, dtype: NonNullable<ReturnType<typeof dtypeOfElementType>>): Operand => {
  if (o.kind === 'const') return constant(castTensor(o.tensor, dtype));
  // The engines compute every float type in float32: a float-to-float cast changes nothing they store.
  if (FLOAT_TYPES.has(dtype) && o.value.dtype === 'f32') return o;
  throw new Unsupported(`a cast of run-time ${o.value.dtype} values to ${dtype}: the engines compute float32 tensors only`);
};

const cast: Converter = (ctx, node) => {
  node.attrs.ignore('saturate');
  ctx.set(node.outputs[0]!, castOperand(ctx.get(node.inputs[0]!), castTo(node.attrs.int('to'))!));
};

const castLike: Converter = (ctx, node) => {
  node.attrs.ignore('saturate');
  const like = ctx.get(node.inputs[1]!);
  const dtype = like.kind === 'const' ? like.tensor.dtype : like.value.dtype;
  ctx.set(node.outputs[0]!, castOperand(ctx.get(node.inputs[0]!), dtype));
};

const identity: Converter = (ctx, node) => {
  ctx.set(node.outputs[0]!, ctx.get(node.inputs[0]!));
};

const dropout: Converter = (ctx, node) => {
  node.attrs.ignore('ratio', 'seed', 'is_test', 'consumed_inputs');
  const training = node.opset >= 12 ? ctx.numbersInput(node, 2, 'training_mode')?.[0] : undefined;
  if (training) throw new Unsupported('training_mode=true: flowinfer runs inference only');
  const mask = node.outputs[1];
  if (mask && (ctx.consumers.get(mask) ?? 0) > 0) throw new Unsupported(`output "${mask}" (the dropout mask) is used`);
  ctx.set(node.outputs[0]!, ctx.get(node.inputs[0]!));
};

const range: Converter = (ctx, node) => {
  const [start, limit, delta] = [0, 1, 2].map((i) => ctx.numbersInput(node, i, ['start', 'limit', 'delta'][i]!)![0]!) as [number, number, number];
  const count = Math.max(Math.ceil((limit - start) / delta), 0);
  const dtype = ctx.constantInput(node, 0, 'start')!.dtype;
  ctx.set(node.outputs[0]!, constant(tensorOf(dtype, [count], Array.from({ length: count }, (_, i) => start + i * delta))));
};

/** Comparisons and logic on constants (shape subgraphs); on run-time tensors they are not supported. */
function logic(f: (...x: number[]) => boolean, bool = true): Converter {
  return (ctx, node) => {
    const inputs = node.inputs.map((n) => ctx.get(n));
    if (inputs.some((o) => o.kind !== 'const')) throw new Unsupported('on run-time tensors (only shape computations known at load are supported)');
    const tensors = inputs.map((o) => (o as { tensor: Tensor }).tensor);
    ctx.set(node.outputs[0]!, constant(foldElementwise(tensors, (...x) => (f(...x) ? 1 : 0), bool ? 'bool' : tensors[0]!.dtype)));
  };
}

const where: Converter = (ctx, node) => {
  const [cond, a, b] = node.inputs.map((n) => ctx.get(n)) as [Operand, Operand, Operand];
  const out = node.outputs[0]!;
  if (cond.kind === 'const' && a.kind === 'const' && b.kind === 'const') {
    ctx.set(out, constant(foldElementwise([cond.tensor, a.tensor, b.tensor], (c, x, y) => (c ? x! : y!), a.tensor.dtype)));
    return;
  }
  // A constant condition is stored as float 0/1: the fast engine moves float tensors only.
  const c = cond.kind === 'const' && !isFloat(cond.tensor.dtype) ? constant(castTensor(cond.tensor, 'f32')) : cond;
  ctx.set(out, ctx.op1('torch.where', [c, a, b], { outputs: [out] }));
};

export const CONSTANTS: ReadonlyArray<[string, Converter]> = [
  ['Constant', constantNode],
  ['ConstantOfShape', constantOfShape],
  ['Shape', shapeNode],
  ['Size', size],
  ['Cast', cast],
  ['CastLike', castLike],
  ['Identity', identity],
  ['Dropout', dropout],
  ['Range', range],
  ['Equal', logic((a, b) => a === b)],
  ['Greater', logic((a, b) => a! > b!)],
  ['GreaterOrEqual', logic((a, b) => a! >= b!)],
  ['Less', logic((a, b) => a! < b!)],
  ['LessOrEqual', logic((a, b) => a! <= b!)],
  ['Not', logic((a) => !a)],
  ['And', logic((a, b) => Boolean(a && b))],
  ['Or', logic((a, b) => Boolean(a || b))],
  ['Where', where],
];
