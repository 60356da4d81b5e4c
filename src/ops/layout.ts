// Helpers the references share for moving elements around: a gather through an index map (any dtype),
// strided index maps for permutes and slices, and the (outer, axis, inner) split of a shape around one dim.

import { allocate, type TypedArray } from '../tensor/dtype.ts';
import { numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';

/**
 * out[i] = x[index[i]] for every output element, keeping x's dtype. Complex dtypes move their (re, im)
 * pairs together.
 */
export function gather(x: Tensor, shape: Shape, index: ArrayLike<number>): Tensor {
  const src = x.data;
  const width = elementWidth(x);
  const out = allocate(x.dtype, index.length * width);
  if (src instanceof BigInt64Array && out instanceof BigInt64Array) {
    for (let i = 0; i < index.length; i++) out[i] = src[index[i]!]!;
  } else if (!(src instanceof BigInt64Array) && !(out instanceof BigInt64Array)) {
    for (let i = 0; i < index.length; i++) {
      for (let k = 0; k < width; k++) out[i * width + k] = src[index[i]! * width + k]!;
    }
  } else {
    throw new TypeError(`mismatched storage for ${x.dtype}`);
  }
  return new Tensor(x.dtype, [...shape], out);
}

/** Storage slots per element: 2 for complex dtypes (re, im), else 1. */
export function elementWidth(x: Tensor): number {
  return x.dtype === 'c64' || x.dtype === 'c128' || x.dtype === 'c32' ? 2 : 1;
}

/** dst[dstStart + i] = src[srcStart + i] for i < count; both arrays hold the same dtype. */
export function copyBlock(src: TypedArray, srcStart: number, dst: TypedArray, dstStart: number, count: number): void {
  if (src instanceof BigInt64Array && dst instanceof BigInt64Array) dst.set(src.subarray(srcStart, srcStart + count), dstStart);
  else if (!(src instanceof BigInt64Array) && !(dst instanceof BigInt64Array)) dst.set(src.subarray(srcStart, srcStart + count), dstStart);
  else throw new TypeError('copyBlock: mixed bigint and number storage');
}

/** The same elements under another shape (a copy, so no tensor aliases another's data). */
export function reshaped(x: Tensor, shape: Shape): Tensor {
  return new Tensor(x.dtype, [...shape], x.data.slice());
}

/**
 * Source offsets of a strided view in row-major output order: element (i0, i1, ...) of the view reads
 * x at base + sum(ik * steps[k]). Permutes, slices and selects are all such views.
 */
export function stridedIndex(shape: Shape, base: number, steps: readonly number[]): Int32Array {
  const total = numel(shape);
  const index = new Int32Array(total);
  const rank = shape.length;
  const pos = new Array<number>(rank).fill(0);
  let offset = base;
  for (let i = 0; i < total; i++) {
    index[i] = offset;
    // Odometer increment over the output dims, last fastest.
    for (let k = rank - 1; k >= 0; k--) {
      pos[k]++;
      offset += steps[k]!;
      if (pos[k]! < shape[k]!) break;
      offset -= pos[k]! * steps[k]!;
      pos[k] = 0;
    }
  }
  return index;
}

/** x with its dims reordered: output dim k is input dim perm[k]. */
export function permuted(x: Tensor, perm: readonly number[]): Tensor {
  const strides = stridesOf(x.shape);
  const shape = perm.map((d) => x.shape[d]!);
  return gather(x, shape, stridedIndex(shape, 0, perm.map((d) => strides[d]!)));
}

/** A shape seen around `axis` as (outer, size, inner): element (o, i, j) sits at (o * size + i) * inner + j. */
export function splitAround(shape: Shape, axis: number): { outer: number; size: number; inner: number } {
  return { outer: numel(shape.slice(0, axis)), size: shape[axis]!, inner: numel(shape.slice(axis + 1)) };
}

/** Float64 accumulators rounded once into a float32 tensor. */
export function roundToF32(shape: Shape, acc: Float64Array): Tensor {
  return new Tensor('f32', [...shape], Float32Array.from(acc));
}
