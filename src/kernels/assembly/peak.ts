// The SIMD ceiling of this machine, for the benchmarks: 12 independent chains of acc = acc * m + c.
// Each chain is a dependent mul->add (or one FMA), so 12 chains cover 2 FP pipes x ~6 cycles of latency;
// 12 accumulators + 2 operands = 14 of V8's 15 xmm registers. m < 1 keeps the values bounded and normal.
// m and c come in as parameters: V8 11.3 rematerialises every v128.const inside the loop (movq imm64,
// vmovq, vpunpcklqdq per constant per iteration), which cost 15 % of this loop (30 -> 35 GFLOP/s plain).
import { madd } from './simd';

/**
 * Runs `iters` iterations of 12 f32x4 multiply-adds (96 FLOP each; call with m = 0.999999, c = 1e-6);
 * returns a lane so nothing is dead.
 */
export function f32x4_peak_u12(iters: i32, mul: f32, add: f32): f32 {
  const m = f32x4.splat(mul);
  const c = f32x4.splat(add);
  let v0 = f32x4.splat(0.0), v1 = f32x4.splat(0.1), v2 = f32x4.splat(0.2), v3 = f32x4.splat(0.3);
  let v4 = f32x4.splat(0.4), v5 = f32x4.splat(0.5), v6 = f32x4.splat(0.6), v7 = f32x4.splat(0.7);
  let v8 = f32x4.splat(0.8), v9 = f32x4.splat(0.9), v10 = f32x4.splat(1.0), v11 = f32x4.splat(1.1);
  for (let i = 0; i < iters; i++) {
    v0 = madd(v0, m, c); v1 = madd(v1, m, c); v2 = madd(v2, m, c); v3 = madd(v3, m, c);
    v4 = madd(v4, m, c); v5 = madd(v5, m, c); v6 = madd(v6, m, c); v7 = madd(v7, m, c);
    v8 = madd(v8, m, c); v9 = madd(v9, m, c); v10 = madd(v10, m, c); v11 = madd(v11, m, c);
  }
  const s = f32x4.add(
    f32x4.add(f32x4.add(f32x4.add(v0, v1), f32x4.add(v2, v3)), f32x4.add(f32x4.add(v4, v5), f32x4.add(v6, v7))),
    f32x4.add(f32x4.add(v8, v9), f32x4.add(v10, v11)),
  );
  return f32x4.extract_lane(s, 0);
}
