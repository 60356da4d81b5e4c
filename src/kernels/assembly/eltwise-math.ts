// The standalone activations, 4 lanes at a time. Unlike the GEMM epilogue (activation.ts, which puts the
// bound first so a NaN accumulator yields the bound), these follow the reference in src/ops/activation.ts
// for NaN too: relu(NaN) = 0 (x > 0 ? x : 0), but relu6, hardsigmoid, hardswish and the rest keep NaN.
// pmax(x, b) = x < b ? b : x passes a NaN x through; pmax(b, x) = b < x ? x : b replaces it by b.
import {
  ACT_HARDSIGMOID, ACT_HARDSWISH, ACT_LEAKY_RELU, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU,
  UNARY_ELU, UNARY_TANH,
} from '../abi';
import { expf4 } from './exp';
import { madd } from './simd';

/**
 * e^x - 1 without the cancellation of exp(x) - 1 near 0: for |x| < ln2/2 it is r + r^2 P(r) with the
 * polynomial of expf4 (exp.ts: e^r = 1 + r + r^2 P(r) on that interval), elsewhere exp(x) - 1, whose
 * result is then at least 0.29 in magnitude (relative error < 4e-7).
 */
// @ts-ignore: decorator
@inline export function expm1f4(x: v128): v128 {
  let p = f32x4.splat(1.9875691500e-4);
  p = madd(p, x, f32x4.splat(1.3981999507e-3));
  p = madd(p, x, f32x4.splat(8.3334519073e-3));
  p = madd(p, x, f32x4.splat(4.1665795894e-2));
  p = madd(p, x, f32x4.splat(1.6666665459e-1));
  p = madd(p, x, f32x4.splat(5.0000001201e-1));
  const small = madd(p, f32x4.mul(x, x), x);
  const large = f32x4.sub(expf4(x), f32x4.splat(1.0));
  return v128.bitselect(small, large, f32x4.lt(f32x4.abs(x), f32x4.splat(0.3465736)));
}

/**
 * tanh(x): Cephes tanhf. For |x| <= 0.625 the odd polynomial x + x^3 P(x^2) (1.7e-7 relative); above,
 * 1 - 2 / (e^{2|x|} + 1) with the sign of x (no cancellation there: the result is >= 0.55; e^{2|x|}
 * overflowing to +inf gives exactly 1). NaN takes the polynomial branch and stays NaN.
 */
// @ts-ignore: decorator
@inline export function tanhf4(x: v128): v128 {
  const one = f32x4.splat(1.0);
  const ax = f32x4.abs(x);
  const e = expf4(f32x4.add(ax, ax));
  const big = f32x4.sub(one, f32x4.div(f32x4.splat(2.0), f32x4.add(e, one)));
  const signed = v128.or(big, v128.and(x, f32x4.splat(-0.0)));
  const z = f32x4.mul(x, x);
  let p = f32x4.splat(-5.70498872745e-3);
  p = madd(p, z, f32x4.splat(2.06390887954e-2));
  p = madd(p, z, f32x4.splat(-5.37397155531e-2));
  p = madd(p, z, f32x4.splat(1.33314422036e-1));
  p = madd(p, z, f32x4.splat(-3.33332819422e-1));
  const small = madd(f32x4.mul(p, z), x, x);
  return v128.bitselect(signed, small, f32x4.gt(ax, f32x4.splat(0.625)));
}

/**
 * sigmoid(x) = 1 / (1 + e^-x) and silu(x) = x / (1 + e^-x), cheaper than exp.ts's sigmoid4 (which works
 * from -|x| and selects): e^-x saturates cleanly at both ends (expf4 gives +inf above ln(FLT_MAX), so
 * sigmoid -> 0 and silu -> -0 for x < -88.7, where the true values are below 1e-37), and silu needs one
 * division instead of a division and a multiplication. NaN stays NaN; silu(-inf) = -inf / inf = NaN, as
 * the reference's -inf * 0.
 */
// @ts-ignore: decorator
@inline export function sigmoidDiv4(numerator: v128, x: v128): v128 {
  return f32x4.div(numerator, f32x4.add(f32x4.splat(1.0), expf4(f32x4.neg(x))));
}

/** The activation `op` (ACT_* or UNARY_*; a compile-time constant at every call site) of 4 lanes. */
// @ts-ignore: decorator
@inline export function unary4(x: v128, op: i32, alpha: v128): v128 {
  const zero = f32x4.splat(0.0);
  const six = f32x4.splat(6.0);
  const sixth = f32x4.splat(<f32>(1.0 / 6.0));
  if (op == ACT_RELU) return f32x4.pmax(zero, x);
  if (op == ACT_RELU6) return f32x4.pmin(f32x4.pmax(x, zero), six);
  if (op == ACT_SIGMOID) return sigmoidDiv4(f32x4.splat(1.0), x);
  if (op == ACT_SILU) return sigmoidDiv4(x, x);
  if (op == ACT_HARDSWISH) {
    const g = f32x4.pmin(f32x4.pmax(f32x4.add(x, f32x4.splat(3.0)), zero), six);
    return f32x4.mul(x, f32x4.mul(g, sixth)); // g / 6 <= 1 first: x * g would overflow near FLT_MAX
  }
  if (op == ACT_HARDSIGMOID) return f32x4.mul(f32x4.pmin(f32x4.pmax(f32x4.add(x, f32x4.splat(3.0)), zero), six), sixth);
  if (op == ACT_LEAKY_RELU) return v128.bitselect(x, f32x4.mul(x, alpha), f32x4.ge(x, zero));
  if (op == UNARY_TANH) return tanhf4(x);
  if (op == UNARY_ELU) return v128.bitselect(x, f32x4.mul(alpha, expm1f4(x)), f32x4.gt(x, zero));
  if (op == ACT_NONE) return x;
  return x;
}
