// The 4x8 SGEMM micro-kernel: 4 rows of A times one packed panel of 8 output channels, full K.
//
// Registers (V8 gives wasm xmm0-xmm14): 8 accumulators + 2 B vectors + 4 broadcast A values = 14, no
// spill. Each k-step: 4 v128.load32_splat of A (one vbroadcastss each), 2 v128.load of B, 8 multiply-adds
// (64 FLOP).
//
// The K loop is deliberately NOT unrolled (measured on the development machine, V8 11.3): TurboFan
// unrolls this small loop x2 by itself (--wasm-loop-unrolling), while a hand-unrolled x4 body is
// rescheduled with every load of the body first (loads keep their order, pure FP ops sink to their
// uses), so 8 B vectors + 8 broadcasts + 8 accumulators are live and 5 accumulators spill to the stack:
// 28 -> 35 GFLOP/s (plain) and 27 -> 42 (relaxed) at 512^3 without the unroll. For the same reason
// 5x8 and 6x8 tiles (10-12 accumulators plus every load of a step) spill: 5x8 relaxed ran at 27-29,
// 6x8 at 24-34 GFLOP/s where 4x8 ran at 38-46.
//
// Packed panel (pack.ts), 16-byte aligned, (K + 1) * 32 bytes:
//   w +  0: bias[0..7]
//   w + 32: W[n0..n0+7, k=0]
//   w + 64: W[n0..n0+7, k=1]   ...   channels past N are zero
import { loadPartial4, madd, storePartial8 } from './simd';
import { activate } from './activation';

// @ts-ignore: decorator
@inline export function gemm4x8(
  a0: usize, a1: usize, a2: usize, a3: usize, w: usize, k: i32,
  c0: usize, c1: usize, c2: usize, c3: usize, nc: i32, act: i32, alpha: v128,
  res: bool, r0: usize, r1: usize, r2: usize, r3: usize,
): void {
  let c00 = v128.load(w);
  let c01 = v128.load(w, 16);
  let c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01;
  w += 32;
  let b0: v128, b1: v128, x: v128;
  for (; k > 0; k--) {
    b0 = v128.load(w, 0);
    b1 = v128.load(w, 16);
    x = v128.load32_splat(a0); c00 = madd(x, b0, c00); c01 = madd(x, b1, c01);
    x = v128.load32_splat(a1); c10 = madd(x, b0, c10); c11 = madd(x, b1, c11);
    x = v128.load32_splat(a2); c20 = madd(x, b0, c20); c21 = madd(x, b1, c21);
    x = v128.load32_splat(a3); c30 = madd(x, b0, c30); c31 = madd(x, b1, c31);
    a0 += 4; a1 += 4; a2 += 4; a3 += 4;
    w += 32;
  }
  store4x8(c00, c01, c10, c11, c20, c21, c30, c31, c0, c1, c2, c3, nc, act, alpha, res, r0, r1, r2, r3);
}

/**
 * The epilogue of a 4x8 tile (shared with the IGEMM): + residual row r_i (when `res`, a compile-time
 * constant like `act`), activation, store of nc columns (8: full vectors; 1..7: storePartial8).
 */
// @ts-ignore: decorator
@inline export function store4x8(
  c00: v128, c01: v128, c10: v128, c11: v128, c20: v128, c21: v128, c30: v128, c31: v128,
  c0: usize, c1: usize, c2: usize, c3: usize, nc: i32, act: i32, alpha: v128,
  res: bool, r0: usize, r1: usize, r2: usize, r3: usize,
): void {
  if (res) {
    // Residual rows are read whole only when the panel is: past N they may end the tensor.
    if (nc >= 8) {
      c00 = f32x4.add(c00, v128.load(r0)); c01 = f32x4.add(c01, v128.load(r0, 16));
      c10 = f32x4.add(c10, v128.load(r1)); c11 = f32x4.add(c11, v128.load(r1, 16));
      c20 = f32x4.add(c20, v128.load(r2)); c21 = f32x4.add(c21, v128.load(r2, 16));
      c30 = f32x4.add(c30, v128.load(r3)); c31 = f32x4.add(c31, v128.load(r3, 16));
    } else {
      c00 = f32x4.add(c00, loadPartial4(r0, nc)); c01 = f32x4.add(c01, loadPartial4(r0 + 16, nc - 4));
      c10 = f32x4.add(c10, loadPartial4(r1, nc)); c11 = f32x4.add(c11, loadPartial4(r1 + 16, nc - 4));
      c20 = f32x4.add(c20, loadPartial4(r2, nc)); c21 = f32x4.add(c21, loadPartial4(r2 + 16, nc - 4));
      c30 = f32x4.add(c30, loadPartial4(r3, nc)); c31 = f32x4.add(c31, loadPartial4(r3 + 16, nc - 4));
    }
  }
  c00 = activate(c00, act, alpha); c01 = activate(c01, act, alpha);
  c10 = activate(c10, act, alpha); c11 = activate(c11, act, alpha);
  c20 = activate(c20, act, alpha); c21 = activate(c21, act, alpha);
  c30 = activate(c30, act, alpha); c31 = activate(c31, act, alpha);
  // Rows past M alias the previous real row (same A and C pointers): they store identical values twice.
  if (nc >= 8) {
    v128.store(c3, c30); v128.store(c3, c31, 16);
    v128.store(c2, c20); v128.store(c2, c21, 16);
    v128.store(c1, c10); v128.store(c1, c11, 16);
    v128.store(c0, c00); v128.store(c0, c01, 16);
  } else {
    storePartial8(c3, c30, c31, nc);
    storePartial8(c2, c20, c21, nc);
    storePartial8(c1, c10, c11, nc);
    storePartial8(c0, c00, c01, nc);
  }
}
