// Softmax and log-softmax along the innermost storage dim against src/ops/softmax.ts: channels of NHWC
// tensors (dim 1, pixel strides > C) and the last dim of plain tensors, rows of +-1000 (no NaN), NaN and
// infinities propagating as in the reference, every call split into random ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ROW_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { writeSoftmaxParams } from '../../src/kernels/softmax.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { bind } from '../ops/support.ts';
import { batch, channels, extent, guardDamage, mismatch, pad, placeNhwc, placeRows, readNhwc, readRows, reserve, runSplit, seeded } from './eltwise-support.ts';
import { testVariants, TestArena } from './helpers.ts';

const EPS = 2 ** -24;

interface Case {
  readonly shape: Shape;
  readonly log: boolean;
  readonly xPad: number;
  readonly yPad: number;
  readonly scale: number;
  readonly seed: number;
  readonly specials: boolean;
}

function runCase(arena: TestArena, k: Case, label: string, data?: Tensor): string | undefined {
  arena.reset();
  const nhwc = k.shape.length === 4;
  const x = data ?? seeded(k.shape, k.seed, k.scale, k.specials);
  const dim = nhwc ? 1 : k.seed % 2 === 0 ? -1 : k.shape.length - 1;
  const want = bind(k.log ? 'nn.LogSoftmax' : 'nn.Softmax', { params: { dim: String(dim) } }).reference([x])[0]!;
  const c = nhwc ? k.shape[1]! : k.shape[k.shape.length - 1]!;
  const rows = numel(k.shape) / c;
  const px = nhwc ? placeNhwc(arena, x, c + k.xPad, k.seed & 3) : placeRows(arena, x.f32, c, c + k.xPad, k.seed & 3);
  const py = reserve(arena, rows, c, c + k.yPad, (k.seed >> 2) & 3);
  const params = arena.alloc(ROW_PARAMS_BYTES);
  writeSoftmaxParams(arena.kernels.memory, params, { x: { at: px.at, stride: c + k.xPad }, y: { at: py.at, stride: c + k.yPad }, rows, c, log: k.log });
  runSplit(arena, 'f32_softmax_rows', params, rows, k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  const got = nhwc ? readNhwc(arena, py, k.shape).f32 : readRows(arena, py);
  // Softmax: relative to the value, for exp(x - max) (x - max rounds), the exp polynomial and the sum of
  // c terms in 8 partial sums; results below FLT_MIN flush to 0. Log-softmax: the same as absolute error.
  const spread = 2 * k.scale * EPS;
  const sum = (c / 8 + 4) * EPS;
  const tolerance = (_i: number, w: number) => (k.log ? 4 * EPS * Math.abs(w) + sum + 2e-7 : Math.abs(w) * (3e-7 + spread + sum) + 1e-37);
  return mismatch(got, want.f32, k.shape, tolerance, `${label} ${k.log ? 'log-softmax' : 'softmax'} (${k.shape}) xPad=${k.xPad} yPad=${k.yPad} scale=${k.scale}`);
}

const cases: fc.Arbitrary<Case> = fc.record({
  nhwc: fc.boolean(),
  n: batch,
  c: channels,
  h: extent,
  w: extent,
  plain: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 0, maxLength: 2 }),
  last: fc.oneof(channels, fc.constantFrom(85, 255, 1000)),
  log: fc.boolean(),
  xPad: pad,
  yPad: pad,
  scale: fc.constantFrom(1, 10, 100, 1000),
  seed: fc.integer(),
  specials: fc.constantFrom(false, false, false, true),
}).map((r) => ({
  shape: r.nhwc ? [r.n, r.c, r.h, r.w] : [...r.plain, r.last],
  log: r.log, xPad: r.xPad, yPad: r.yPad, scale: r.scale, seed: r.seed, specials: r.specials,
}));

for (const variant of testVariants()) {
  test(`${variant} build: softmax and log-softmax match the reference on random rows (NHWC dim 1, plain last dim)`, () => {
    const arena = new TestArena(variant, 128);
    fc.assert(fc.property(cases, (k) => {
      const failure = runCase(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 300 });
  });

  test(`${variant} build: softmax of +-1000 is 1 and 0, not NaN; log-softmax stays finite`, () => {
    const arena = new TestArena(variant, 16);
    const row = [1000, -1000, 0, 999, -999, 1000, 500, -1000, 0.5];
    const x = Tensor.f32([2, row.length], [...row, ...row.map((v) => -v)]);
    for (const log of [false, true]) {
      const failure = runCase(arena, { shape: x.shape, log, xPad: 0, yPad: 0, scale: 1000, seed: 0, specials: false }, `${variant} +-1000`, x);
      assert.equal(failure, undefined, failure);
    }
    // And explicitly: no NaN anywhere.
    const check = bind('nn.Softmax', { params: { dim: '1' } }).reference([x])[0]!;
    assert.ok(check.f32.every((v) => !Number.isNaN(v)));
  });
}
