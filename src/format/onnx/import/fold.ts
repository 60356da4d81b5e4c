// Constant arithmetic at load, in ONNX's own typing: int64 shape math stays int64 (the PNNX expression
// evaluator computes integers in int32 and would change the dtype), float math rounds to float32 per
// element. Used when every input of an elementwise op, a Cast or a Concat is a constant.

import { allocate, type DType } from '../../../tensor/dtype.ts';
import { broadcastShapes, numel, stridesOf, type Shape } from '../../../tensor/shape.ts';
import { Tensor } from '../../../tensor/tensor.ts';
import { Unsupported } from './errors.ts';
import { tensorNumbers } from './tensor.ts';

export const isFloat = (dtype: DType) => dtype === 'f32' || dtype === 'f64' || dtype === 'f16' || dtype === 'bf16';

/** A tensor of `dtype` holding `values` (rounded as the dtype stores them; f16/bf16 are stored as f32). */
export function tensorOf(dtype: DType, shape: Shape, values: ArrayLike<number>): Tensor {
  const stored: DType = dtype === 'f16' || dtype === 'bf16' ? 'f32' : dtype;
  const out = allocate(stored, values.length);
  if (out instanceof BigInt64Array) for (let i = 0; i < values.length; i++) out[i] = BigInt(Math.trunc(values[i]!));
  else if (stored === 'bool') for (let i = 0; i < values.length; i++) out[i] = values[i] ? 1 : 0;
  else for (let i = 0; i < values.length; i++) out[i] = values[i]!;
  return new Tensor(stored, [...shape], out);
}

/** int64 1-D. */
export const i64 = (values: readonly number[]) => tensorOf('i64', [values.length], values);

/** For each output element of a broadcast, the flat index into an input of shape `shape`. */
function broadcastIndex(out: Shape, shape: Shape): Int32Array {
  const strides = stridesOf(shape);
  const lead = out.length - shape.length;
  const steps = out.map((_, k) => (k < lead || shape[k - lead] === 1 ? 0 : strides[k - lead]!));
  const index = new Int32Array(numel(out));
  const pos = new Array<number>(out.length).fill(0);
  let offset = 0;
  for (let i = 0; i < index.length; i++) {
    index[i] = offset;
    for (let k = out.length - 1; k >= 0; k--) {
      pos[k]!++;
      offset += steps[k]!;
      if (pos[k]! < out[k]!) break;
      offset -= pos[k]! * steps[k]!;
      pos[k] = 0;
    }
  }
  return index;
}

/** fn over numpy-broadcast constants; the result has `dtype` (default: the first input's). */
export function foldElementwise(inputs: readonly Tensor[], fn: (...x: number[]) => number, dtype: DType = inputs[0]!.dtype): Tensor {
  const shape = broadcastShapes(inputs.map((t) => t.shape));
  if (!shape) throw new Unsupported(`constant operands ${inputs.map((t) => `(${t.shape.join(',')})`).join(', ')} do not broadcast`);
  const values = inputs.map(tensorNumbers);
  const index = inputs.map((t) => broadcastIndex(shape, t.shape));
  const out = new Float64Array(numel(shape));
  const args = new Array<number>(inputs.length);
  for (let i = 0; i < out.length; i++) {
    for (let k = 0; k < inputs.length; k++) args[k] = values[k]![index[k]![i]!]!;
    out[i] = fn(...args);
  }
  if (isFloat(dtype)) for (let i = 0; i < out.length; i++) out[i] = Math.fround(out[i]!);
  return tensorOf(dtype, shape, out);
}

/** ONNX Cast of a constant (float to integer truncates toward zero; to bool is "not zero"). */
export function castTensor(t: Tensor, to: DType): Tensor {
  const values = tensorNumbers(t);
  if (to === 'bool') return tensorOf('bool', t.shape, values.map((v) => (v !== 0 ? 1 : 0)));
  if (isFloat(to)) return tensorOf(to, t.shape, to === 'f64' ? values : values.map(Math.fround));
  return tensorOf(to, t.shape, values.map(Math.trunc));
}

/** Concat of constants along `axis`; every input is converted to the first one's dtype. */
export function concatTensors(inputs: readonly Tensor[], axis: number): Tensor {
  const first = inputs[0]!;
  const rank = first.shape.length;
  const a = axis < 0 ? axis + rank : axis;
  const outer = numel(first.shape.slice(0, a));
  const parts = inputs.map((t) => ({ values: tensorNumbers(t), block: numel(t.shape.slice(a)) }));
  const out: number[] = [];
  for (let o = 0; o < outer; o++) for (const p of parts) for (let i = 0; i < p.block; i++) out.push(p.values[o * p.block + i]!);
  const shape = [...first.shape];
  shape[a] = inputs.reduce((s, t) => s + t.shape[a]!, 0);
  return tensorOf(first.dtype, shape, out);
}

/** ONNX Gather of constants along `axis` (negative indices count from the end). */
export function gatherTensor(data: Tensor, indices: Tensor, axis: number): Tensor {
  const rank = data.shape.length;
  const a = axis < 0 ? axis + rank : axis;
  const size = data.shape[a]!;
  const outer = numel(data.shape.slice(0, a));
  const inner = numel(data.shape.slice(a + 1));
  const values = tensorNumbers(data);
  const picks = tensorNumbers(indices).map((i) => (i < 0 ? i + size : i));
  if (picks.some((i) => i < 0 || i >= size)) throw new Unsupported(`Gather index out of range for a dim of ${size}`);
  const out: number[] = [];
  for (let o = 0; o < outer; o++) for (const i of picks) for (let j = 0; j < inner; j++) out.push(values[(o * size + i) * inner + j]!);
  return tensorOf(data.dtype, [...data.shape.slice(0, a), ...indices.shape, ...data.shape.slice(a + 1)], out);
}

/** ONNX Expand of a constant: broadcast to `shape` (numpy's rule, either side may be 1). */
export function expandTensor(t: Tensor, shape: readonly number[]): Tensor {
  const target = broadcastShapes([t.shape, shape]);
  if (!target) throw new Unsupported(`Expand: (${t.shape.join(',')}) does not broadcast to (${shape.join(',')})`);
  const values = tensorNumbers(t);
  const index = broadcastIndex(target, t.shape);
  return tensorOf(t.dtype, target, Array.from(index, (i) => values[i]!));
}

/** A reduction of a constant over `axes` (all when empty), keeping them as 1s with keepdims. */
export function reduceTensor(t: Tensor, axes: readonly number[], keepdims: boolean, kind: 'sum' | 'mean' | 'prod' | 'max' | 'min'): Tensor {
  const rank = t.shape.length;
  const reduced = new Set((axes.length ? axes : t.shape.map((_, k) => k)).map((a) => (a < 0 ? a + rank : a)));
  const kept = t.shape.map((d, k) => (reduced.has(k) ? 1 : d));
  const keptStrides = stridesOf(kept);
  const values = tensorNumbers(t);
  const init = { sum: 0, mean: 0, prod: 1, max: -Infinity, min: Infinity }[kind];
  const acc = new Array<number>(numel(kept)).fill(init);
  const pos = new Array<number>(rank).fill(0);
  for (let i = 0; i < values.length; i++) {
    let o = 0;
    for (let k = 0; k < rank; k++) if (!reduced.has(k)) o += pos[k]! * keptStrides[k]!;
    const v = values[i]!;
    acc[o] = kind === 'prod' ? acc[o]! * v : kind === 'max' ? Math.max(acc[o]!, v) : kind === 'min' ? Math.min(acc[o]!, v) : acc[o]! + v;
    for (let k = rank - 1; k >= 0; k--) {
      if (++pos[k]! < t.shape[k]!) break;
      pos[k] = 0;
    }
  }
  const count = values.length / Math.max(acc.length, 1);
  const out = kind === 'mean' ? acc.map((v) => v / count) : acc;
  const shape = keepdims ? kept : t.shape.filter((_, k) => !reduced.has(k));
  return tensorOf(t.dtype, shape, isFloat(t.dtype) ? out.map(Math.fround) : out);
}
