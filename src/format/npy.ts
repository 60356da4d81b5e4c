// NumPy .npy files (format version 1.0-3.0): a magic string, a header dict giving dtype, order and shape,
// then the raw data. Written by hand: the npm readers depend on fetch and browser APIs.

import { FlowinferError } from '../errors.ts';
import { allocate, type DType } from '../tensor/dtype.ts';
import { numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';

const MAGIC = '\x93NUMPY';
const DESCR: Readonly<Record<string, DType>> = {
  '<f4': 'f32', '<f8': 'f64', '<i4': 'i32', '<i8': 'i64', '<i2': 'i16', '|i1': 'i8', '|u1': 'u8', '|b1': 'bool', '<f2': 'f16',
};

export function readNpy(bytes: Uint8Array, file = '<bytes>'): Tensor {
  const fail = (why: string): never => {
    throw new FlowinferError(`${file}: not a readable .npy file: ${why}`);
  };
  if (bytes.length < 10 || new TextDecoder('latin1').decode(bytes.subarray(0, 6)) !== MAGIC) fail('no \\x93NUMPY magic');
  const major = bytes[6]!;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = major === 1 ? 10 : 12;
  const header = new TextDecoder('latin1').decode(bytes.subarray(headerStart, headerStart + headerLength));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1] ?? fail(`no descr in header ${header.trim()}`);
  const dtype = DESCR[descr] ?? fail(`dtype ${descr} is not supported (supported: ${Object.keys(DESCR).join(' ')})`);
  if (/'fortran_order':\s*True/.test(header)) fail('Fortran-ordered arrays are not supported');
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? fail('no shape in header');
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  const count = numel(shape);
  const dataStart = headerStart + headerLength;
  const storage = allocate(dtype, count);
  const raw = bytes.subarray(dataStart);
  if (raw.byteLength < storage.byteLength) fail(`${raw.byteLength} data bytes, the header's shape (${shape.join(',')}) needs ${storage.byteLength}`);
  new Uint8Array(storage.buffer).set(raw.subarray(0, storage.byteLength));
  return new Tensor(dtype, shape, storage);
}

/** A float32 tensor as .npy bytes (version 1.0). */
export function writeNpy(t: Tensor): Uint8Array {
  const shape = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  // Pad so the data starts at a multiple of 64 bytes, header ending in a newline.
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const out = new Uint8Array(10 + header.length + t.size * 4);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0);
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(t.f32.buffer, t.f32.byteOffset, t.size * 4), 10 + header.length);
  return out;
}
