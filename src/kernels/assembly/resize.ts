// Resizing NHWC images (block RS_* in ../abi.ts) through index tables that the glue (../resize.ts) builds
// with PyTorch's source-index rules, so the kernels only gather: one unit = one output row (n, oy).
//   nearest:  out(n, oy, ox) = x(n, YTAB[oy], XTAB[ox])                              (a pixel copy)
//   bilinear: out = wy0 * (wx0 * x(y0, x0) + wx1 * x(y0, x1)) + wy1 * (wx0 * x(y1, x0) + wx1 * x(y1, x1))
//             with (i0, i1, w0, w1) entries of 16 bytes in both tables, in the reference's order of terms.
import { RS_C, RS_H, RS_OH, RS_OW, RS_W, RS_X, RS_XS, RS_XTAB, RS_Y, RS_YS, RS_YTAB } from '../abi';
import { copySpan } from './copy';
import { madd } from './simd';

/** Output rows [r0, r1) of a nearest-neighbour resize. */
export function f32_resize_nearest_nhwc(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, RS_C);
  const h = load<i32>(p, RS_H), w = load<i32>(p, RS_W);
  const oh = load<i32>(p, RS_OH), ow = load<i32>(p, RS_OW);
  const xs = <usize>load<u32>(p, RS_XS) << 2;
  const ys = <usize>load<u32>(p, RS_YS) << 2;
  const x = <usize>load<u32>(p, RS_X);
  const y = <usize>load<u32>(p, RS_Y);
  const ytab = <usize>load<u32>(p, RS_YTAB);
  const xtab = <usize>load<u32>(p, RS_XTAB);
  for (let r = r0; r < r1; r++) {
    const n = r / oh;
    const oy = r - n * oh;
    const src = x + <usize>(n * h + load<i32>(ytab + (<usize>oy << 2))) * <usize>w * xs;
    let out = y + <usize>r * <usize>ow * ys;
    for (let ox = 0; ox < ow; ox++) {
      copySpan(out, src + <usize>load<i32>(xtab + (<usize>ox << 2)) * xs, c);
      out += ys;
    }
  }
}

/** Output rows [r0, r1) of a bilinear resize. */
export function f32_resize_bilinear_nhwc(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, RS_C);
  const h = load<i32>(p, RS_H), w = load<i32>(p, RS_W);
  const oh = load<i32>(p, RS_OH), ow = load<i32>(p, RS_OW);
  const xs = <usize>load<u32>(p, RS_XS) << 2;
  const ys = <usize>load<u32>(p, RS_YS) << 2;
  const x = <usize>load<u32>(p, RS_X);
  const y = <usize>load<u32>(p, RS_Y);
  const ytab = <usize>load<u32>(p, RS_YTAB);
  const xtab = <usize>load<u32>(p, RS_XTAB);
  const cb = <usize>c << 2;
  for (let r = r0; r < r1; r++) {
    const n = r / oh;
    const oy = r - n * oh;
    const ye = ytab + (<usize>oy << 4);
    const image = x + <usize>(n * h) * <usize>w * xs;
    const top = image + <usize>load<i32>(ye) * <usize>w * xs;
    const bottom = image + <usize>load<i32>(ye, 4) * <usize>w * xs;
    const wy0 = v128.load32_splat(ye, 8);
    const wy1 = v128.load32_splat(ye, 12);
    let out = y + <usize>r * <usize>ow * ys;
    for (let ox = 0; ox < ow; ox++) {
      const xe = xtab + (<usize>ox << 4);
      const left = <usize>load<i32>(xe) * xs;
      const right = <usize>load<i32>(xe, 4) * xs;
      const wx0 = v128.load32_splat(xe, 8);
      const wx1 = v128.load32_splat(xe, 12);
      const a = top + left, b = top + right, d = bottom + left, e = bottom + right;
      let ch: usize = 0;
      for (; ch + 16 <= cb; ch += 16) {
        const t = madd(wx1, v128.load(b + ch), f32x4.mul(wx0, v128.load(a + ch)));
        const u = madd(wx1, v128.load(e + ch), f32x4.mul(wx0, v128.load(d + ch)));
        v128.store(out + ch, madd(wy1, u, f32x4.mul(wy0, t)));
      }
      for (; ch < cb; ch += 4) {
        const t = madd(wx1, v128.load32_splat(b + ch), f32x4.mul(wx0, v128.load32_splat(a + ch)));
        const u = madd(wx1, v128.load32_splat(e + ch), f32x4.mul(wx0, v128.load32_splat(d + ch)));
        v128.store32_lane(out + ch, madd(wy1, u, f32x4.mul(wy0, t)), 0);
      }
      out += ys;
    }
  }
}
