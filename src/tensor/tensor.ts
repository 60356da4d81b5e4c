// A host tensor: dtype, shape and its own typed array. The reference engine computes on these;
// the fast engine's tensors live in the shared arena instead (see arena.ts).

import { allocate, DTYPE_BYTES, type DType, type TypedArray } from './dtype.ts';
import { formatShape, numel, type Shape } from './shape.ts';

export class Tensor {
  constructor(
    readonly dtype: DType,
    readonly shape: Shape,
    readonly data: TypedArray,
  ) {
    const expected = dtype === 'c64' || dtype === 'c128' || dtype === 'c32' ? numel(shape) * 2 : numel(shape);
    if (data.length !== expected) {
      throw new RangeError(`tensor ${dtype}${formatShape(shape)} needs ${expected} elements, got ${data.length}`);
    }
  }

  /** A zero-filled tensor. */
  static zeros(shape: Shape, dtype: DType = 'f32'): Tensor {
    return new Tensor(dtype, [...shape], allocate(dtype, numel(shape)));
  }

  /** A float32 tensor over `data` (not copied). */
  static f32(shape: Shape, data: Float32Array | readonly number[]): Tensor {
    return new Tensor('f32', [...shape], data instanceof Float32Array ? data : Float32Array.from(data));
  }

  get size(): number {
    return numel(this.shape);
  }

  get rank(): number {
    return this.shape.length;
  }

  get byteLength(): number {
    return this.size * DTYPE_BYTES[this.dtype];
  }

  /** The data as float32; throws if the tensor holds another dtype. */
  get f32(): Float32Array {
    if (!(this.data instanceof Float32Array) || this.dtype !== 'f32') {
      throw new TypeError(`expected an f32 tensor, got ${this.dtype}${formatShape(this.shape)}`);
    }
    return this.data;
  }

  toString(): string {
    return `Tensor ${this.dtype}${formatShape(this.shape)}`;
  }
}
