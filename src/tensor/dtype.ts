// Element types, as PNNX spells them in `@attr=(shape)f32` and `#operand=(shape)f32`.

export const DTYPES = ['f32', 'f64', 'f16', 'bf16', 'i32', 'i64', 'i16', 'i8', 'u8', 'bool', 'c64', 'c128', 'c32'] as const;
export type DType = (typeof DTYPES)[number];

/** Bytes per element. */
export const DTYPE_BYTES: Readonly<Record<DType, number>> = {
  f32: 4, f64: 8, f16: 2, bf16: 2, i32: 4, i64: 8, i16: 2, i8: 1, u8: 1, bool: 1, c64: 8, c128: 16, c32: 4,
};

/** Older pnnx (2022-06 to 2023-04) wrote complex types as cp64/cp128/cp32. */
const LEGACY_SPELLINGS: Readonly<Record<string, DType>> = { cp64: 'c64', cp128: 'c128', cp32: 'c32' };

/** The dtype a PNNX suffix names; `null` is PNNX's "unknown/absent"; undefined if not a dtype at all. */
export function parseDTypeSuffix(text: string): DType | null | undefined {
  if (text === 'null') return null;
  if ((DTYPES as readonly string[]).includes(text)) return text as DType;
  return LEGACY_SPELLINGS[text];
}

export type TypedArray =
  | Float32Array | Float64Array | Int32Array | BigInt64Array | Int16Array | Int8Array | Uint8Array | Uint16Array;

/**
 * A typed array over `bytes` (which must be aligned to the element size) in the dtype's storage form:
 * f16/bf16 stay raw 16-bit words, complex types are interleaved (re, im) pairs, bool is one byte each.
 */
export function viewAs(dtype: DType, buffer: ArrayBufferLike, byteOffset: number, count: number): TypedArray {
  switch (dtype) {
    case 'f32': return new Float32Array(buffer, byteOffset, count);
    case 'f64': return new Float64Array(buffer, byteOffset, count);
    case 'f16': case 'bf16': return new Uint16Array(buffer, byteOffset, count);
    case 'i32': return new Int32Array(buffer, byteOffset, count);
    case 'i64': return new BigInt64Array(buffer, byteOffset, count);
    case 'i16': return new Int16Array(buffer, byteOffset, count);
    case 'i8': return new Int8Array(buffer, byteOffset, count);
    case 'u8': case 'bool': return new Uint8Array(buffer, byteOffset, count);
    case 'c64': return new Float32Array(buffer, byteOffset, count * 2);
    case 'c128': return new Float64Array(buffer, byteOffset, count * 2);
    case 'c32': return new Uint16Array(buffer, byteOffset, count * 2);
  }
}

/** A zero-filled typed array of `count` elements of `dtype`. */
export function allocate(dtype: DType, count: number): TypedArray {
  return viewAs(dtype, new ArrayBuffer(count * DTYPE_BYTES[dtype]), 0, count);
}

/** IEEE half-precision bits to a number. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** bfloat16 bits to a number: the high half of an f32. */
export function bfloat16ToFloat(bits: number): number {
  const scratch = new Uint32Array([bits << 16]);
  return new Float32Array(scratch.buffer)[0]!;
}

/** Any real-valued storage widened to float32 (how ops consume weights stored as f16, bf16, f64 or ints). */
export function toFloat32(dtype: DType, data: TypedArray): Float32Array {
  if (dtype === 'f32') return data as Float32Array;
  const out = new Float32Array(data.length);
  if (dtype === 'f16') for (let i = 0; i < data.length; i++) out[i] = halfToFloat(data[i] as number);
  else if (dtype === 'bf16') for (let i = 0; i < data.length; i++) out[i] = bfloat16ToFloat(data[i] as number);
  else if (dtype === 'c64' || dtype === 'c128' || dtype === 'c32') throw new Error(`cannot widen complex ${dtype} to f32`);
  else for (let i = 0; i < data.length; i++) out[i] = Number(data[i]);
  return out;
}
