// The 4x8 IGEMM micro-kernel: 4 output pixels times one packed panel of 8 output channels, over every
// tap of the convolution (kernels.md section 2.2). The same register plan and K loop as the GEMM's
// gemm4x8 (see gemm-4x8.ts for why the loop is not unrolled by hand); per tap it first reads the 4
// input-pixel offsets of the indirection buffer and turns them into row pointers.
//
// Indirection of one 4-pixel tile (ind), TAPS x 4 i32, byte offsets from the image's input base (-1: a
// zero-padding tap, read from `zero`, which holds at least K zeros):
//   ind +  0: tap 0: pixel 0, 1, 2, 3
//   ind + 16: tap 1: pixel 0, 1, 2, 3   ...
//
// Packed panel (conv-pack.ts), (TAPS * K + 1) * 32 bytes: bias[8], then per tap the K rows of 8 weights.
import { madd } from './simd';
import { store4x8 } from './gemm-4x8';

// @ts-ignore: decorator
@inline export function igemm4x8(
  ind: usize, taps: i32, k: i32, base: usize, zero: usize, w: usize,
  c0: usize, c1: usize, c2: usize, c3: usize, nc: i32, act: i32, alpha: v128,
  res: bool, r0: usize, r1: usize, r2: usize, r3: usize,
): void {
  let c00 = v128.load(w);
  let c01 = v128.load(w, 16);
  let c10 = c00, c11 = c01, c20 = c00, c21 = c01, c30 = c00, c31 = c01;
  w += 32;
  let b0: v128, b1: v128, x: v128;
  for (let t = taps; t > 0; t--) {
    const e0 = load<i32>(ind, 0);
    const e1 = load<i32>(ind, 4);
    const e2 = load<i32>(ind, 8);
    const e3 = load<i32>(ind, 12);
    ind += 16;
    // A tap that is padding for all 4 pixels adds nothing: skip its K rows (border tiles of a convolution,
    // and the taps of a transposed convolution that no input row lands on).
    if ((e0 & e1 & e2 & e3) < 0) {
      w += <usize>k << 5;
      continue;
    }
    let a0 = select<usize>(zero, base + <usize>e0, e0 < 0);
    let a1 = select<usize>(zero, base + <usize>e1, e1 < 0);
    let a2 = select<usize>(zero, base + <usize>e2, e2 < 0);
    let a3 = select<usize>(zero, base + <usize>e3, e3 < 0);
    for (let kk = k; kk > 0; kk--) {
      b0 = v128.load(w, 0);
      b1 = v128.load(w, 16);
      x = v128.load32_splat(a0); c00 = madd(x, b0, c00); c01 = madd(x, b1, c01);
      x = v128.load32_splat(a1); c10 = madd(x, b0, c10); c11 = madd(x, b1, c11);
      x = v128.load32_splat(a2); c20 = madd(x, b0, c20); c21 = madd(x, b1, c21);
      x = v128.load32_splat(a3); c30 = madd(x, b0, c30); c31 = madd(x, b1, c31);
      a0 += 4; a1 += 4; a2 += 4; a3 += 4;
      w += 32;
    }
  }
  store4x8(c00, c01, c10, c11, c20, c21, c30, c31, c0, c1, c2, c3, nc, act, alpha, res, r0, r1, r2, r3);
}
