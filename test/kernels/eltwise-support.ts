// Shared by the pooling, elementwise, resize, softmax and copy kernel tests: NHWC tensors placed in a test
// arena with a pixel stride and sentinels around (and between) their pixels, range kernels run over
// random splits of their units, and element comparisons that name the N-d index.
import fc from 'fast-check';
import type { RangeKernelName } from '../../src/kernels/module.ts';
import { nchwToNhwc, nhwcToNchw } from '../../src/tensor/nhwc.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { prng, type TestArena } from './helpers.ts';

export const SENTINEL = 0x7fbadbad; // a NaN pattern no kernel produces

/** A region of the arena holding a tensor, with sentinel floats before, after and between pixels. */
export interface Placed {
  readonly at: number;
  /** Floats between consecutive rows (pixels for NHWC). */
  readonly stride: number;
  /** Rows and floats per row of the storage. */
  readonly rows: number;
  readonly cols: number;
  readonly guardFrom: number;
  readonly guardFloats: number;
}

const GUARD = 19;

/** Reserves rows x stride floats (plus guards, plus `shift` floats of misalignment) filled with sentinels. */
export function reserve(arena: TestArena, rows: number, cols: number, stride: number, shift = 0): Placed {
  const floats = GUARD + (rows - 1) * stride + cols + GUARD;
  const from = arena.alloc((floats + shift) * 4) + shift * 4;
  new Uint32Array(arena.buffer, from, floats).fill(SENTINEL);
  return { at: from + GUARD * 4, stride, rows, cols, guardFrom: from, guardFloats: floats };
}

/** Places an NCHW rank-4 tensor as NHWC with the given pixel stride; other ranks as rows of `cols`. */
export function placeNhwc(arena: TestArena, t: Tensor, stride: number, shift = 0): Placed {
  const [n, c, h, w] = t.shape as [number, number, number, number];
  const p = reserve(arena, n * h * w, c, stride, shift);
  nchwToNhwc(t.f32, new Float32Array(arena.buffer, p.at, (n * h * w - 1) * stride + c), n, c, h, w, stride);
  return p;
}

export function placeRows(arena: TestArena, data: Float32Array, cols: number, stride: number, shift = 0): Placed {
  const rows = data.length / cols;
  const p = reserve(arena, rows, cols, stride, shift);
  const f = new Float32Array(arena.buffer, p.at, (rows - 1) * stride + cols);
  for (let r = 0; r < rows; r++) f.set(data.subarray(r * cols, (r + 1) * cols), r * stride);
  return p;
}

/** Reads an NHWC placement back as an NCHW tensor of `shape`. */
export function readNhwc(arena: TestArena, p: Placed, shape: Shape): Tensor {
  const [n, c, h, w] = shape as [number, number, number, number];
  const out = new Float32Array(numel(shape));
  nhwcToNchw(new Float32Array(arena.buffer, p.at, (n * h * w - 1) * p.stride + c), out, n, c, h, w, p.stride);
  return new Tensor('f32', shape, out);
}

export function readRows(arena: TestArena, p: Placed): Float32Array {
  const out = new Float32Array(p.rows * p.cols);
  const f = new Float32Array(arena.buffer, p.at, (p.rows - 1) * p.stride + p.cols);
  for (let r = 0; r < p.rows; r++) out.set(f.subarray(r * p.stride, r * p.stride + p.cols), r * p.cols);
  return out;
}

/** The first sentinel word a kernel overwrote outside the rows (before, after, or in a pixel's gap). */
export function guardDamage(arena: TestArena, p: Placed): string | undefined {
  const words = new Uint32Array(arena.buffer, p.guardFrom, p.guardFloats);
  for (let i = 0; i < p.guardFloats; i++) {
    const k = i - GUARD;
    const inside = k >= 0 && k < (p.rows - 1) * p.stride + p.cols && k % p.stride < p.cols;
    if (!inside && words[i] !== SENTINEL) return `wrote float ${k} relative to the region start (row stride ${p.stride}, ${p.cols} columns, ${p.rows} rows)`;
  }
  return undefined;
}

/** Runs fn over [0, units) in 1 to 4 random pieces, in a random order (as two workers would take tiles). */
export function runSplit(arena: TestArena, fn: RangeKernelName, params: number, units: number, seed: number): void {
  const random = prng(seed);
  const cuts = new Set([0, units]);
  const pieces = Math.floor(random() * 4);
  for (let i = 0; i < pieces; i++) cuts.add(Math.floor(random() * units));
  const sorted = [...cuts].sort((a, b) => a - b);
  const ranges = sorted.slice(1).map((end, i) => [sorted[i]!, end] as const);
  for (let i = ranges.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranges[i], ranges[j]] = [ranges[j]!, ranges[i]!];
  }
  const kernel = arena.kernels.exports[fn];
  for (const [u0, u1] of ranges) kernel(params, u0, u1);
}

/** Values a seeded tensor holds: uniform in [-scale, scale), optionally with NaN and infinities. */
export function seeded(shape: Shape, seed: number, scale = 1, specials = false): Tensor {
  const random = prng(seed);
  const data = Float32Array.from({ length: numel(shape) }, () => (2 * random() - 1) * scale);
  if (specials) {
    for (let i = 0; i < data.length; i++) {
      const r = random();
      if (r < 0.02) data[i] = Number.NaN;
      else if (r < 0.03) data[i] = Number.POSITIVE_INFINITY;
      else if (r < 0.04) data[i] = Number.NEGATIVE_INFINITY;
    }
  }
  return new Tensor('f32', shape, data);
}

const indexOf = (shape: Shape, flat: number): number[] => {
  const index = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    index[d] = flat % shape[d]!;
    flat = Math.floor(flat / shape[d]!);
  }
  return index;
};

/**
 * The first element where |got - want| > tolerance(i, want) (NaN must meet NaN; with `exact`, values
 * must be identical, -0 and +0 aside), as a message naming the N-d index; undefined if none.
 */
export function mismatch(got: Float32Array, want: Float32Array, shape: Shape, tolerance: (i: number, want: number) => number, label: string): string | undefined {
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!;
    const w = want[i]!;
    if (Number.isNaN(w) || Number.isNaN(g)) {
      if (Number.isNaN(w) && Number.isNaN(g)) continue;
    } else if (g === w || Math.abs(g - w) <= tolerance(i, w)) {
      continue;
    }
    return `${label}: at [${indexOf(shape, i).join(',')}] of (${shape.join(',')}) expected ${w}, got ${g} (tolerance ${tolerance(i, w)})`;
  }
  return undefined;
}

/** Dims that hit the vector paths and their tails. */
export const channels = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(1, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33) },
  { weight: 1, arbitrary: fc.constantFrom(64, 65, 127, 128, 129) },
);
export const extent = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 9 }) }, { weight: 1, arbitrary: fc.constantFrom(1, 3, 13, 16, 17) });
export const batch = fc.constantFrom(1, 1, 2, 3);
/** Extra floats per pixel beyond C (a channel slice of a wider tensor). */
export const pad = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }) });
