// f32_copy_rows against the torch.cat reference (src/ops/cat.ts): channel concatenation of 1 to 4 NHWC
// tensors with their own pixel strides into a (possibly strided) output, plain tensors along any dim, long
// contiguous spans (the memory.copy path); exact, nothing written outside the output's slices.
import { test } from 'node:test';
import fc from 'fast-check';
import { writeCopyParams, copyParamsBytes } from '../../src/kernels/copy.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { bind } from '../ops/support.ts';
import { batch, channels, extent, guardDamage, mismatch, pad, placeNhwc, placeRows, readNhwc, readRows, reserve, runSplit, seeded, type Placed } from './eltwise-support.ts';
import { testVariants, TestArena } from './helpers.ts';

interface Case {
  readonly shapes: Shape[];
  readonly axis: number;
  readonly pads: number[];
  readonly yPad: number;
  readonly seed: number;
}

function runCase(arena: TestArena, k: Case, label: string): string | undefined {
  arena.reset();
  const xs = k.shapes.map((s, i) => seeded(s, k.seed + i, 5, true));
  const want = bind('torch.cat', { params: { dim: String(k.axis) }, inputs: xs.length }).reference(xs)[0]!;
  const nhwc = want.rank === 4;
  let placed: Placed[];
  let py: Placed;
  let rows: number;
  let sources;
  let yStride: number;
  if (nhwc) {
    // Channels: a row is a pixel; source i fills [offset_i, offset_i + C_i) of each output pixel.
    const [n, c, h, w] = want.shape as [number, number, number, number];
    rows = n * h * w;
    yStride = c + k.yPad;
    placed = xs.map((x, i) => placeNhwc(arena, x, x.shape[1]! + k.pads[i]!, (k.seed + i) & 3));
    py = reserve(arena, rows, c, yStride, (k.seed >> 3) & 3);
    let offset = 0;
    sources = placed.map((p, i) => {
      const s = { src: { at: p.at, stride: p.stride }, len: xs[i]!.shape[1]!, dstOffset: offset };
      offset += xs[i]!.shape[1]!;
      return s;
    });
  } else {
    // Plain: a row is an outer index; source i is a block of size_i * inner floats.
    const outer = numel(want.shape.slice(0, k.axis));
    const inner = numel(want.shape.slice(k.axis + 1));
    rows = outer;
    yStride = want.shape[k.axis]! * inner;
    placed = xs.map((x, i) => placeRows(arena, x.f32, x.shape[k.axis]! * inner, x.shape[k.axis]! * inner, (k.seed + i) & 3));
    py = reserve(arena, rows, yStride, yStride, (k.seed >> 3) & 3);
    let offset = 0;
    sources = placed.map((p, i) => {
      const len = xs[i]!.shape[k.axis]! * inner;
      const s = { src: { at: p.at, stride: len }, len, dstOffset: offset };
      offset += len;
      return s;
    });
  }
  const block = arena.alloc(copyParamsBytes(sources.length));
  writeCopyParams(arena.kernels.memory, block, { y: { at: py.at, stride: yStride }, rows, sources });
  runSplit(arena, 'f32_copy_rows', block, rows, k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  const got = nhwc ? readNhwc(arena, py, want.shape).f32 : readRows(arena, py);
  return mismatch(got, want.f32, want.shape, () => 0, `${label} cat dim ${k.axis} of ${k.shapes.map((s) => `(${s})`).join(' ')} pads=${k.pads} yPad=${k.yPad}`);
}

const nhwcCases: fc.Arbitrary<Case> = fc.record({
  n: batch, h: extent, w: extent, cs: fc.array(channels, { minLength: 1, maxLength: 4 }), pads: fc.array(pad, { minLength: 4, maxLength: 4 }), yPad: pad, seed: fc.integer(),
}).map((r) => ({ shapes: r.cs.map((c) => [r.n, c, r.h, r.w]), axis: 1, pads: r.pads, yPad: r.yPad, seed: r.seed }));

const plainCases: fc.Arbitrary<Case> = fc.record({
  dims: fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 }),
  axisPick: fc.nat(),
  sizes: fc.array(fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constantFrom(700, 1500, 3001)), { minLength: 1, maxLength: 4 }),
  seed: fc.integer(),
}).map((r) => {
  const axis = r.axisPick % r.dims.length;
  return { shapes: r.sizes.map((s) => r.dims.map((d, i) => (i === axis ? s : d))), axis, pads: [0, 0, 0, 0], yPad: 0, seed: r.seed };
});

for (const variant of testVariants()) {
  test(`${variant} build: channel concatenation of NHWC tensors with pixel strides is exact`, () => {
    const arena = new TestArena(variant, 256);
    fc.assert(fc.property(nhwcCases, (k) => {
      const failure = runCase(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 200 });
  });

  test(`${variant} build: plain concatenation along any dim (long spans through memory.copy) is exact`, () => {
    const arena = new TestArena(variant, 256);
    fc.assert(fc.property(plainCases, (k) => {
      const failure = runCase(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 200 });
  });
}
