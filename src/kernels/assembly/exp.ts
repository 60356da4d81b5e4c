// Vectorised exp and sigmoid for the activation epilogues (and, later, softmax).
//
// exp(x) = 2^n * e^r with n = round(x / ln2) and r = x - n*ln2, |r| <= ln2/2:
//   - n comes from the "magic bias" trick: adding 1.5 * 2^23 rounds x/ln2 to an integer that then sits in
//     the low mantissa bits, so `bits << 23` is n in exponent position (no float->int conversion, which V8
//     lowers to a 5-instruction fix-up sequence on x64);
//   - ln2 is split in two (Cephes C1 has 9 significant bits, so n*C1 is exact for |n| <= 128);
//   - e^r = 1 + r + r^2 * P(r), P of degree 5: Cephes expf's minimax coefficients, ~1.5e-7 relative;
//   - 2^n is applied by adding n to the exponent field of e^r (in [0.7, 1.42]), exact over the whole
//     normal range because x is clamped to [ln(FLT_MIN), ln(FLT_MAX)] first;
//   - outside it: 0 below ln(FLT_MIN) (true results there are subnormal, < 1.2e-38), +inf above
//     ln(FLT_MAX); NaN stays NaN (pmax/pmin with x first pass NaN through, compares with NaN are false).
import { madd } from './simd';

// @ts-ignore: decorator
@inline const LOG2E: f32 = 1.44269504;
// @ts-ignore: decorator
@inline const MAGIC: f32 = 12582912.0; // 1.5 * 2^23
// @ts-ignore: decorator
@inline const LN2_HI: f32 = 0.693359375;
// @ts-ignore: decorator
@inline const LN2_LO: f32 = -2.12194440e-4;
// @ts-ignore: decorator
@inline const X_MIN: f32 = -87.33654; // ln(FLT_MIN)
// @ts-ignore: decorator
@inline const X_MAX: f32 = 88.72283; // just below ln(FLT_MAX) = 88.7228390: n = 128 with r < 0, so e^r < 1

/** e^x for 4 lanes, relative error < 2e-7 for x in [ln(FLT_MIN), ln(FLT_MAX)] (1.2e-7 measured). */
// @ts-ignore: decorator
@inline export function expf4(x: v128): v128 {
  const xc = f32x4.pmin(f32x4.pmax(x, f32x4.splat(X_MIN)), f32x4.splat(X_MAX));
  const z = madd(xc, f32x4.splat(LOG2E), f32x4.splat(MAGIC));
  const n = f32x4.sub(z, f32x4.splat(MAGIC));
  let r = madd(n, f32x4.splat(-LN2_HI), xc);
  r = madd(n, f32x4.splat(-LN2_LO), r);
  let p = f32x4.splat(1.9875691500e-4);
  p = madd(p, r, f32x4.splat(1.3981999507e-3));
  p = madd(p, r, f32x4.splat(8.3334519073e-3));
  p = madd(p, r, f32x4.splat(4.1665795894e-2));
  p = madd(p, r, f32x4.splat(1.6666665459e-1));
  p = madd(p, r, f32x4.splat(5.0000001201e-1));
  p = madd(p, f32x4.mul(r, r), f32x4.add(r, f32x4.splat(1.0)));
  const e = v128.andnot(i32x4.add(p, i32x4.shl(z, 23)), f32x4.lt(x, f32x4.splat(X_MIN)));
  return v128.bitselect(f32x4.splat(Infinity), e, f32x4.gt(x, f32x4.splat(X_MAX)));
}

/**
 * 1 / (1 + e^-x) for 4 lanes. Works from z = -|x| so e^z never overflows: s = e^z / (1 + e^z) is
 * sigmoid(-|x|), and sigmoid(x) = 1 - s for x > 0.
 */
// @ts-ignore: decorator
@inline export function sigmoid4(x: v128): v128 {
  const e = expf4(v128.or(x, f32x4.splat(-0.0)));
  const s = f32x4.div(e, f32x4.add(e, f32x4.splat(1.0)));
  return v128.bitselect(f32x4.sub(f32x4.splat(1.0), s), s, f32x4.gt(x, f32x4.splat(0.0)));
}

/** y[i] = exp(x[i]) for i < n (x, y byte offsets; y may equal x). */
export function f32_exp_x4(x: usize, y: usize, n: i32): void {
  for (; n >= 4; n -= 4) {
    v128.store(y, expf4(v128.load(x)));
    x += 16;
    y += 16;
  }
  for (; n > 0; n--) {
    v128.store32_lane(y, expf4(v128.load32_zero(x)), 0);
    x += 4;
    y += 4;
  }
}
