// Softmax and log-softmax along rows (block ROW_* in ../abi.ts; ROW_OP = SOFTMAX_EXP or SOFTMAX_LOG).
// A row is the innermost storage dim: a pixel's channels in NHWC (softmax over dim 1), or the last dim
// of a plain tensor. Three passes over the row, which stays in L1:
//   1. m = max(x)                                 (pmax: a NaN may be skipped here, but then pass 2
//   2. s = sum(exp(x - m)); softmax stores e = exp(x - m)   gives s = NaN and every output NaN, as the
//   3. softmax: y = e / s;  log: y = (x - m) - log(s)       reference's Math.max would)
// Stable for any finite input: x - m <= 0, so exp never overflows, and s >= 1 (the max term is exp(0)).
import { ROW_C, ROW_OP, ROW_X, ROW_XS, ROW_Y, ROW_YS, SOFTMAX_LOG } from '../abi';
import { expf4 } from './exp';

/**
 * ln(s) for s >= 1 (Cephes logf, ~1 ulp): s = 2^e * m with m in [sqrt(1/2), sqrt(2)), then
 * ln(1 + t) = t - t^2/2 + t^3 P(t) for t = m - 1, evaluated in f64. NaN stays NaN.
 */
function logf(s: f32): f32 {
  if (!(s == s)) return s;
  const bits = reinterpret<i32>(s);
  let e = ((bits >> 23) & 0xff) - 126;
  let m = <f64>reinterpret<f32>((bits & 0x7fffff) | 0x3f000000); // [0.5, 1)
  if (m < 0.70710678118654752) {
    e--;
    m = m + m - 1.0;
  } else {
    m = m - 1.0;
  }
  const z = m * m;
  let y = 7.0376836292e-2;
  y = y * m - 1.1514610310e-1;
  y = y * m + 1.1676998740e-1;
  y = y * m - 1.2420140846e-1;
  y = y * m + 1.4249322787e-1;
  y = y * m - 1.6668057665e-1;
  y = y * m + 2.0000714765e-1;
  y = y * m - 2.4999993993e-1;
  y = y * m + 3.3333331174e-1;
  y = y * m * z;
  return <f32>(<f64>e * 0.6931471805599453 + (m - 0.5 * z + y));
}

// @ts-ignore: decorator
@inline function softmaxRow(x: usize, y: usize, c: i32, log: bool): void {
  // 1. max
  let m0 = f32x4.splat(-Infinity);
  let m1 = m0;
  let i = 0;
  for (; i + 8 <= c; i += 8) {
    m0 = f32x4.pmax(m0, v128.load(x + (<usize>i << 2)));
    m1 = f32x4.pmax(m1, v128.load(x + (<usize>i << 2), 16));
  }
  for (; i + 4 <= c; i += 4) m0 = f32x4.pmax(m0, v128.load(x + (<usize>i << 2)));
  m0 = f32x4.pmax(m0, m1);
  let hi = max<f32>(max<f32>(f32x4.extract_lane(m0, 0), f32x4.extract_lane(m0, 1)), max<f32>(f32x4.extract_lane(m0, 2), f32x4.extract_lane(m0, 3)));
  for (; i < c; i++) hi = max<f32>(hi, load<f32>(x + (<usize>i << 2)));
  const mv = f32x4.splat(hi);

  // 2. sum of exp(x - max), stored for softmax
  let s0 = f32x4.splat(0.0);
  let s1 = s0;
  i = 0;
  for (; i + 8 <= c; i += 8) {
    const at = <usize>i << 2;
    const e0 = expf4(f32x4.sub(v128.load(x + at), mv));
    const e1 = expf4(f32x4.sub(v128.load(x + at, 16), mv));
    if (!log) {
      v128.store(y + at, e0);
      v128.store(y + at, e1, 16);
    }
    s0 = f32x4.add(s0, e0);
    s1 = f32x4.add(s1, e1);
  }
  for (; i + 4 <= c; i += 4) {
    const at = <usize>i << 2;
    const e0 = expf4(f32x4.sub(v128.load(x + at), mv));
    if (!log) v128.store(y + at, e0);
    s0 = f32x4.add(s0, e0);
  }
  s0 = f32x4.add(s0, s1);
  let sum = (f32x4.extract_lane(s0, 0) + f32x4.extract_lane(s0, 1)) + (f32x4.extract_lane(s0, 2) + f32x4.extract_lane(s0, 3));
  for (let j = i; j < c; j++) {
    const at = <usize>j << 2;
    const e = f32x4.extract_lane(expf4(f32x4.sub(v128.load32_splat(x + at), mv)), 0);
    if (!log) store<f32>(y + at, e);
    sum += e;
  }

  // 3. normalise
  if (log) {
    const ls = f32x4.splat(logf(sum));
    i = 0;
    for (; i + 4 <= c; i += 4) {
      const at = <usize>i << 2;
      v128.store(y + at, f32x4.sub(f32x4.sub(v128.load(x + at), mv), ls));
    }
    for (; i < c; i++) {
      const at = <usize>i << 2;
      store<f32>(y + at, f32x4.extract_lane(f32x4.sub(f32x4.sub(v128.load32_splat(x + at), mv), ls), 0));
    }
  } else {
    const sv = f32x4.splat(sum);
    i = 0;
    for (; i + 4 <= c; i += 4) {
      const at = <usize>i << 2;
      v128.store(y + at, f32x4.div(v128.load(y + at), sv));
    }
    for (; i < c; i++) {
      const at = <usize>i << 2;
      store<f32>(y + at, load<f32>(y + at) / sum);
    }
  }
}

function softmaxRows(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, ROW_C);
  const xs = <usize>load<u32>(p, ROW_XS) << 2;
  const ys = <usize>load<u32>(p, ROW_YS) << 2;
  let x = <usize>load<u32>(p, ROW_X) + <usize>r0 * xs;
  let y = <usize>load<u32>(p, ROW_Y) + <usize>r0 * ys;
  for (let r = r0; r < r1; r++) {
    softmaxRow(x, y, c, false);
    x += xs;
    y += ys;
  }
}

function logSoftmaxRows(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, ROW_C);
  const xs = <usize>load<u32>(p, ROW_XS) << 2;
  const ys = <usize>load<u32>(p, ROW_YS) << 2;
  let x = <usize>load<u32>(p, ROW_X) + <usize>r0 * xs;
  let y = <usize>load<u32>(p, ROW_Y) + <usize>r0 * ys;
  for (let r = r0; r < r1; r++) {
    softmaxRow(x, y, c, true);
    x += xs;
    y += ys;
  }
}

/** Rows [r0, r1): softmax (ROW_OP = SOFTMAX_EXP) or log-softmax (SOFTMAX_LOG) of each row of C floats. */
export function f32_softmax_rows(p: usize, r0: i32, r1: i32): void {
  if (load<i32>(p, ROW_OP) == SOFTMAX_LOG) logSoftmaxRows(p, r0, r1);
  else softmaxRows(p, r0, r1);
}
