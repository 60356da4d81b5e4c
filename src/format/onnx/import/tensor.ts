// TensorProto → Tensor: the inverse of the exporter's tensorProto (../tensor.ts, whose element-type table is
// reused). `raw_data` wins when present (IR.md), else the typed field for the element type holds the values:
// float_data (FLOAT, COMPLEX64), int32_data (INT32 and every narrower type, FLOAT16/BFLOAT16 as bits),
// int64_data, double_data, uint64_data. Protobuf bytes are not aligned: raw data is copied before viewing.

import { allocate, DTYPES, DTYPE_BYTES, toFloat32, viewAs, type DType } from '../../../tensor/dtype.ts';
import { numel } from '../../../tensor/shape.ts';
import { Tensor } from '../../../tensor/tensor.ts';
import type { TensorProto } from '../proto.ts';
import { elementType } from '../tensor.ts';
import { OnnxModelError } from './errors.ts';

/** A protobuf int64 (Long when long.js is present) as a number; beyond 2^53 it is rounded, which the
 *  importer only meets as "infinity" markers (Slice ends of INT64_MAX). */
export function toNumber(x: number | { toNumber(): number } | null | undefined): number {
  if (x === null || x === undefined) return 0;
  return typeof x === 'number' ? x : x.toNumber();
}

const BY_ELEMENT_TYPE = new Map<number, DType>();
for (const dtype of DTYPES) {
  const t = elementType(dtype);
  if (t !== undefined) BY_ELEMENT_TYPE.set(t, dtype);
}
/** UINT16/UINT32/UINT64 have no flowinfer dtype: their values widen to i32 / i64 (shape math only). */
const WIDENED: Readonly<Record<number, DType>> = { 4: 'i32', 12: 'i64', 13: 'i64' };

/** The flowinfer dtype of an ONNX element type, or undefined (strings, complex). */
export function dtypeOfElementType(elemType: number): DType | undefined {
  return BY_ELEMENT_TYPE.get(elemType) ?? WIDENED[elemType];
}

/** Decodes a TensorProto; `what` names it in errors (`initializer "w"`, `Constant node "c"`). */
export function tensorFromProto(t: TensorProto, what: string): Tensor {
  const elemType = t.dataType ?? 0;
  const dtype = dtypeOfElementType(elemType);
  if (!dtype || dtype.startsWith('c')) throw new OnnxModelError(`${what}: element type ${elemType} is not supported (real numbers and bool only)`);
  if (t.dataLocation === 1 || (t.externalData?.length ?? 0) > 0) {
    throw new OnnxModelError(`${what}: its data is stored in an external file, which the importer does not read`);
  }
  const shape = (t.dims ?? []).map(toNumber);
  const count = numel(shape);
  const raw = t.rawData;
  if (raw && raw.length > 0) {
    const width = elemType === 13 ? 8 : elemType === 12 ? 4 : elemType === 4 ? 2 : DTYPE_BYTES[dtype];
    if (raw.length !== count * width) throw new OnnxModelError(`${what}: raw_data holds ${raw.length} bytes, shape (${shape.join(',')}) needs ${count * width}`);
    const aligned = new Uint8Array(raw.length);
    aligned.set(raw);
    if (elemType === 4 || elemType === 12) {
      // Unsigned narrower storage: read as such, widened into the signed flowinfer dtype.
      const src = elemType === 4 ? new Uint16Array(aligned.buffer) : new Uint32Array(aligned.buffer);
      const out = allocate(dtype, count);
      if (out instanceof BigInt64Array) for (let i = 0; i < count; i++) out[i] = BigInt(src[i]!);
      else for (let i = 0; i < count; i++) out[i] = src[i]!;
      return new Tensor(dtype, shape, out);
    }
    return new Tensor(dtype, shape, viewAs(dtype, aligned.buffer, 0, count));
  }
  const out = allocate(dtype, count);
  const source: ArrayLike<number | { toNumber(): number }> =
    dtype === 'f32' ? t.floatData ?? []
      : dtype === 'f64' ? t.doubleData ?? []
        : dtype === 'i64' ? (elemType === 13 ? t.uint64Data ?? [] : t.int64Data ?? [])
          : t.int32Data ?? [];
  if (count > 0 && source.length !== count) {
    throw new OnnxModelError(`${what}: holds ${source.length} values, shape (${shape.join(',')}) needs ${count}`);
  }
  if (out instanceof BigInt64Array) {
    for (let i = 0; i < count; i++) {
      const v = source[i]!;
      out[i] = typeof v === 'number' ? BigInt(v) : BigInt(v.toString());
    }
  } else {
    for (let i = 0; i < count; i++) out[i] = toNumber(source[i]);
  }
  return new Tensor(dtype, shape, out);
}

/** A tensor's values as plain numbers (int64 through Number, bool as 0/1, f16/bf16 decoded). */
export function tensorNumbers(t: Tensor): number[] {
  if (t.dtype === 'f16' || t.dtype === 'bf16') return Array.from(toFloat32(t.dtype, t.data));
  return Array.from(t.data as ArrayLike<number | bigint>, (v) => Number(v));
}
