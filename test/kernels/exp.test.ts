// The vectorised exp behind the SiLU/Sigmoid epilogues, against Math.exp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testVariants, TestArena } from './helpers.ts';

const LN_FLT_MIN = -87.33654;
const LN_FLT_MAX = 88.72283;
const REL = 1e-6; // the brief; 1.2e-7 is measured (Cephes expf polynomial, ~1 ulp)

function expOf(arena: TestArena, xs: readonly number[]): Float32Array {
  arena.reset();
  const x = arena.alloc(xs.length * 4 + 64);
  const y = arena.alloc(xs.length * 4 + 64);
  arena.floats(x, xs.length).set(xs);
  const after = arena.floats(y + xs.length * 4, 4).fill(-7);
  arena.kernels.exports.f32_exp_x4(x, y, xs.length);
  assert.deepEqual([...after], [-7, -7, -7, -7], `f32_exp_x4 wrote past y[${xs.length}]`);
  return arena.floats(y, xs.length).slice();
}

function relativeError(x: number, got: number): number {
  const want = Math.exp(x);
  return Math.abs(got - want) / want;
}

for (const variant of testVariants()) {
  test(`${variant} build: exp within ${REL} relative on a dense grid of the normal range`, () => {
    const arena = new TestArena(variant, 64);
    const n = 1 << 18;
    const xs = Array.from({ length: n }, (_, i) => Math.fround(LN_FLT_MIN + ((LN_FLT_MAX - LN_FLT_MIN) * i) / (n - 1)));
    const ys = expOf(arena, xs);
    let worst = 0;
    let at = 0;
    xs.forEach((x, i) => {
      const e = relativeError(x, ys[i]!);
      if (e > worst) [worst, at] = [e, i];
    });
    assert.ok(worst <= REL, `exp(${xs[at]}): expected ${Math.exp(xs[at]!)}, got ${ys[at]}, relative error ${worst}`);
  });

  test(`${variant} build: exp of random floats, any count (vector body and 1..3 tail)`, () => {
    const arena = new TestArena(variant, 16);
    const x = fc.float({ min: Math.fround(LN_FLT_MIN), max: Math.fround(LN_FLT_MAX), noNaN: true });
    fc.assert(
      fc.property(fc.array(x, { minLength: 1, maxLength: 23 }), (xs) => {
        const ys = expOf(arena, xs);
        xs.forEach((v, i) => {
          const e = relativeError(v, ys[i]!);
          if (!(e <= REL)) throw new Error(`exp(${v}) at index ${i} of ${xs.length}: expected ${Math.exp(v)}, got ${ys[i]}, relative error ${e}`);
        });
      }),
    );
  });

  test(`${variant} build: exp edges: 0 -> 1, below ln(FLT_MIN) -> 0, above ln(FLT_MAX) -> +inf, NaN -> NaN`, () => {
    const arena = new TestArena(variant, 16);
    const ys = expOf(arena, [0, -87.5, -100, -Infinity, 88.73, 89, 1000, Infinity, Number.NaN]);
    assert.deepEqual([...ys], [1, 0, 0, 0, Infinity, Infinity, Infinity, Infinity, Number.NaN]);
  });

  test(`${variant} build: exp in place (y = x)`, () => {
    const arena = new TestArena(variant, 16);
    const x = arena.alloc(64);
    arena.floats(x, 5).set([0, 1, -1, 2, -2]);
    arena.kernels.exports.f32_exp_x4(x, x, 5);
    [0, 1, -1, 2, -2].forEach((v, i) => assert.ok(relativeError(v, arena.floats(x, 5)[i]!) <= REL, `exp(${v})`));
  });
}
