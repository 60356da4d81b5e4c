// What the glue of the pooling, elementwise, resize, softmax and copy kernels checks before it writes a
// parameter block: every region a kernel will touch lies in the arena and inside the memory, outputs do
// not overlap inputs (unless they are the same region, for the elementwise kernels), and the block itself
// is aligned and in bounds. The kernels check nothing.

import { FlowinferError } from '../errors.ts';
import { RESERVED_BYTES } from './abi.ts';
import type { SharedMemory } from './wasm.ts';

/** `rows` rows of `cols` floats, row r at byte `at + 4 * r * stride` (stride 0: one row read again). */
export interface Region {
  readonly at: number;
  readonly rows: number;
  readonly cols: number;
  readonly stride: number;
}

/** One past the last byte of a region. */
export const regionEnd = (r: Region): number => r.at + ((r.rows - 1) * r.stride + r.cols) * 4;

export const sameRegion = (a: Region, b: Region): boolean => a.at === b.at && a.stride === b.stride && a.cols === b.cols && a.rows === b.rows;

/**
 * Whether two regions share a float. Equal strides (channel slices of one NHWC tensor) are compared
 * column-wise; otherwise their byte ranges are.
 */
export function regionsOverlap(a: Region, b: Region): boolean {
  if (regionEnd(a) <= b.at || regionEnd(b) <= a.at) return false;
  if (a.stride !== b.stride || a.stride === 0 || (a.at - b.at) % 4 !== 0) return true;
  const rowBytes = a.stride * 4;
  const shift = (((a.at - b.at) % rowBytes) + rowBytes) % rowBytes; // a's first column relative to b's, bytes
  const from = shift / 4;
  return from < b.cols || from + a.cols > a.stride;
}

/** Collects the checks of one kernel call; every failure names the kernel and the broken field. */
export class CallCheck {
  constructor(
    private readonly what: string,
    private readonly memoryBytes: number,
  ) {}

  fail(problem: string): never {
    throw new FlowinferError(`${this.what}: ${problem}`);
  }

  /** Integers >= min (default 1). */
  counts(values: Record<string, number>, min = 1): void {
    for (const [name, value] of Object.entries(values)) {
      if (!Number.isInteger(value) || value < min || value > 0x7fffffff) this.fail(`${name}=${value} must be an integer >= ${min}`);
    }
  }

  /** A float region: 4-byte aligned, stride >= cols (or 0 when `broadcast`), in the arena and the memory. */
  region(name: string, r: Region, broadcast = false): void {
    this.counts({ [`${name} rows`]: r.rows, [`${name} columns`]: r.cols });
    this.counts({ [`${name} stride`]: r.stride }, 0);
    if (!(r.stride >= r.cols || (broadcast && r.stride === 0))) this.fail(`${name} stride ${r.stride} is below its ${r.cols} columns`);
    if (!Number.isInteger(r.at) || r.at % 4 !== 0) this.fail(`${name} at ${r.at} is not 4-byte aligned`);
    if (r.at < RESERVED_BYTES) this.fail(`${name} at ${r.at} lies below the arena (${RESERVED_BYTES})`);
    if (regionEnd(r) > this.memoryBytes) this.fail(`${name} ends at ${regionEnd(r)}, past the memory (${this.memoryBytes} bytes)`);
  }

  /** `out` shares no float with `input` (the same region is allowed when `inPlace`). */
  disjoint(outName: string, out: Region, inName: string, input: Region, inPlace = false): void {
    if (inPlace && sameRegion(out, input)) return;
    if (regionsOverlap(out, input)) this.fail(`${outName} overlaps ${inName}`);
  }

  /** A parameter block (or table) of `bytes` at `at`: aligned to `align`, in the arena and the memory. */
  block(name: string, at: number, bytes: number, align = 16): void {
    if (!Number.isInteger(at) || at % align !== 0 || at < RESERVED_BYTES || at + bytes > this.memoryBytes) {
      this.fail(`${name} at ${at} (${bytes} bytes) must be ${align}-byte aligned, in the arena and in the memory (${this.memoryBytes} bytes)`);
    }
  }
}

/** Little-endian 32-bit views of a parameter block. */
export function blockViews(memory: SharedMemory, at: number, bytes: number): { u32: Uint32Array; i32: Int32Array; f32: Float32Array } {
  const buffer = memory.buffer;
  return { u32: new Uint32Array(buffer, at, bytes / 4), i32: new Int32Array(buffer, at, bytes / 4), f32: new Float32Array(buffer, at, bytes / 4) };
}

/**
 * The 32-bit views of a kernel's parameter block of `bytes` at `at`, after checking it is 16-byte aligned,
 * in the arena and in the memory (`what` names the kernel in the error).
 */
export function paramBlock(memory: SharedMemory, at: number, bytes: number, what: string): { u32: Uint32Array; i32: Int32Array; f32: Float32Array } {
  if (at % 16 !== 0 || at < RESERVED_BYTES || at + bytes > memory.buffer.byteLength) {
    throw new FlowinferError(`${what} parameter block at ${at}: must be 16-byte aligned, in the arena and in the memory`);
  }
  return blockViews(memory, at, bytes);
}
