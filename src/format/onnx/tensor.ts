// flowinfer dtypes as ONNX element types, and typed arrays as TensorProto initializers. Data goes into
// `raw_data` as little-endian bytes (IR.md: raw_data wins over the typed fields), viewed, not copied.

import { endianness } from 'node:os';
import type { DType, TypedArray } from '../../tensor/dtype.ts';
import type { Shape } from '../../tensor/shape.ts';
import { onnx, type TensorProto } from './proto.ts';

const T = onnx.TensorProto.DataType;

/** ONNX TensorProto.DataType per flowinfer dtype; complex types have no ONNX form the exporter writes. */
const ELEMENT_TYPES: Partial<Record<DType, number>> = {
  f32: T.FLOAT, f64: T.DOUBLE, f16: T.FLOAT16, bf16: T.BFLOAT16,
  i64: T.INT64, i32: T.INT32, i16: T.INT16, i8: T.INT8, u8: T.UINT8, bool: T.BOOL,
};

/** The ONNX element type of a dtype, or undefined when ONNX has none here (complex). */
export function elementType(dtype: DType): number | undefined {
  return ELEMENT_TYPES[dtype];
}

// raw_data is little-endian by definition; a typed array's bytes are in the host's order.
if (endianness() !== 'LE') throw new Error('ONNX export writes typed arrays as raw little-endian bytes: a big-endian host is not supported');

/** An initializer over `data` (f16/bf16 as raw 16-bit words, bool as bytes, i64 as BigInt64Array). */
export function tensorProto(name: string, dtype: DType, shape: Shape, data: TypedArray): TensorProto {
  const dataType = elementType(dtype);
  if (dataType === undefined) throw new Error(`initializer ${name}: dtype ${dtype} has no ONNX element type`);
  return onnx.TensorProto.create({
    name,
    dataType,
    dims: [...shape],
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
}
