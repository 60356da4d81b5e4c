// Pooling over NHWC images (block POOL_* in ../abi.ts), with PyTorch's window rules as src/ops/pool.ts
// and src/ops/adaptive-pool.ts implement them:
//   f32_maxpool_nhwc        kernel, stride, padding, dilation; only taps inside the input count
//   f32_avgpool_nhwc        window clipped to the padded input (count_include_pad divisor), then to the
//                           input (divisor without padding), or divisor_override
//   f32_adaptive_pool_nhwc  window [floor(i*in/out), ceil((i+1)*in/out)) per dim, max or average
//   f32_global_avgpool_nhwc the common adaptive (1,1) average: one unit per (image, 16 channels)
// Pooling units are output rows (n, oy); each output pixel is one window reduction (pool-window.ts).
import {
  POOL_C, POOL_DH, POOL_DIV, POOL_DW, POOL_GLOBAL_BLOCK, POOL_H, POOL_KH, POOL_KW, POOL_MODE, POOL_MODE_AVG_PAD,
  POOL_MODE_MAX, POOL_OH, POOL_OW, POOL_PH, POOL_PW, POOL_SH, POOL_SW, POOL_W, POOL_X, POOL_XS, POOL_Y, POOL_YS,
} from '../abi';
import { avgWindow, maxWindow } from './pool-window';

/** Output rows [r0, r1) (row = n * OH + oy) of a max pool. */
export function f32_maxpool_nhwc(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, POOL_C);
  const h = load<i32>(p, POOL_H), w = load<i32>(p, POOL_W);
  const oh = load<i32>(p, POOL_OH), ow = load<i32>(p, POOL_OW);
  const kh = load<i32>(p, POOL_KH), kw = load<i32>(p, POOL_KW);
  const sh = load<i32>(p, POOL_SH), sw = load<i32>(p, POOL_SW);
  const ph = load<i32>(p, POOL_PH), pw = load<i32>(p, POOL_PW);
  const dh = load<i32>(p, POOL_DH), dw = load<i32>(p, POOL_DW);
  const xs = <usize>load<u32>(p, POOL_XS) << 2;
  const ys = <usize>load<u32>(p, POOL_YS) << 2;
  const x = <usize>load<u32>(p, POOL_X);
  const y = <usize>load<u32>(p, POOL_Y);
  const rowStep = <usize>dh * <usize>w * xs;
  const colStep = <usize>dw * xs;
  for (let r = r0; r < r1; r++) {
    const n = r / oh;
    const oy = r - n * oh;
    // Taps ky with 0 <= t + ky*dh < h, ky < kh.
    const t = oy * sh - ph;
    const ky0 = t < 0 ? (dh - 1 - t) / dh : 0;
    const ny = max(0, min(kh, (h - t + dh - 1) / dh) - ky0);
    const iy = t + ky0 * dh;
    const image = x + <usize>(n * h + iy) * <usize>w * xs;
    let out = y + <usize>r * <usize>ow * ys;
    for (let ox = 0; ox < ow; ox++) {
      const u = ox * sw - pw;
      const kx0 = u < 0 ? (dw - 1 - u) / dw : 0;
      const nx = max(0, min(kw, (w - u + dw - 1) / dw) - kx0);
      const ix = u + kx0 * dw;
      maxWindow(image + <usize>ix * xs, ny, nx, rowStep, colStep, out, c);
      out += ys;
    }
  }
}

/** Output rows [r0, r1) of an average pool (POOL_MODE_AVG or POOL_MODE_AVG_PAD, POOL_DIV override). */
export function f32_avgpool_nhwc(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, POOL_C);
  const h = load<i32>(p, POOL_H), w = load<i32>(p, POOL_W);
  const oh = load<i32>(p, POOL_OH), ow = load<i32>(p, POOL_OW);
  const kh = load<i32>(p, POOL_KH), kw = load<i32>(p, POOL_KW);
  const sh = load<i32>(p, POOL_SH), sw = load<i32>(p, POOL_SW);
  const ph = load<i32>(p, POOL_PH), pw = load<i32>(p, POOL_PW);
  const countPad = load<i32>(p, POOL_MODE) == POOL_MODE_AVG_PAD;
  const divisorOverride = load<i32>(p, POOL_DIV);
  const xs = <usize>load<u32>(p, POOL_XS) << 2;
  const ys = <usize>load<u32>(p, POOL_YS) << 2;
  const x = <usize>load<u32>(p, POOL_X);
  const y = <usize>load<u32>(p, POOL_Y);
  const rowStep = <usize>w * xs;
  for (let r = r0; r < r1; r++) {
    const n = r / oh;
    const oy = r - n * oh;
    let y0 = oy * sh - ph;
    let y1 = min(y0 + kh, h + ph);
    const padH = y1 - y0;
    y0 = max(y0, 0);
    y1 = min(y1, h);
    const image = x + <usize>(n * h + y0) * rowStep;
    let out = y + <usize>r * <usize>ow * ys;
    for (let ox = 0; ox < ow; ox++) {
      let x0 = ox * sw - pw;
      let x1 = min(x0 + kw, w + pw);
      const padded = padH * (x1 - x0);
      x0 = max(x0, 0);
      x1 = min(x1, w);
      const ny = max(0, y1 - y0);
      const nx = max(0, x1 - x0);
      // An empty window (not reachable with PyTorch's padding <= kernel/2 rule) gives 0, as the reference.
      const divisor: f32 = ny * nx == 0 ? <f32>Infinity : <f32>(divisorOverride != 0 ? divisorOverride : countPad ? padded : ny * nx);
      avgWindow(image + <usize>x0 * xs, ny, nx, rowStep, xs, out, c, f32x4.splat(divisor));
      out += ys;
    }
  }
}

// @ts-ignore: decorator
@inline function adaptiveRows(p: usize, r0: i32, r1: i32, isMax: bool): void {
  const c = load<i32>(p, POOL_C);
  const h = load<i32>(p, POOL_H), w = load<i32>(p, POOL_W);
  const oh = load<i32>(p, POOL_OH), ow = load<i32>(p, POOL_OW);
  const xs = <usize>load<u32>(p, POOL_XS) << 2;
  const ys = <usize>load<u32>(p, POOL_YS) << 2;
  const x = <usize>load<u32>(p, POOL_X);
  const y = <usize>load<u32>(p, POOL_Y);
  const rowStep = <usize>w * xs;
  for (let r = r0; r < r1; r++) {
    const n = r / oh;
    const oy = r - n * oh;
    const y0 = (oy * h) / oh;
    const y1 = ((oy + 1) * h + oh - 1) / oh;
    const image = x + <usize>(n * h + y0) * rowStep;
    let out = y + <usize>r * <usize>ow * ys;
    for (let ox = 0; ox < ow; ox++) {
      const x0 = (ox * w) / ow;
      const x1 = ((ox + 1) * w + ow - 1) / ow;
      if (isMax) maxWindow(image + <usize>x0 * xs, y1 - y0, x1 - x0, rowStep, xs, out, c);
      else avgWindow(image + <usize>x0 * xs, y1 - y0, x1 - x0, rowStep, xs, out, c, f32x4.splat(<f32>((y1 - y0) * (x1 - x0))));
      out += ys;
    }
  }
}

function adaptiveMax(p: usize, r0: i32, r1: i32): void { adaptiveRows(p, r0, r1, true); }
function adaptiveAvg(p: usize, r0: i32, r1: i32): void { adaptiveRows(p, r0, r1, false); }

/** Output rows [r0, r1) of an adaptive pool (POOL_MODE_MAX or POOL_MODE_AVG). */
export function f32_adaptive_pool_nhwc(p: usize, r0: i32, r1: i32): void {
  if (load<i32>(p, POOL_MODE) == POOL_MODE_MAX) adaptiveMax(p, r0, r1);
  else adaptiveAvg(p, r0, r1);
}

/**
 * Units [u0, u1) of the global average (output (N, C, 1, 1)): unit u = (image u / blocks, channels
 * [16 * (u % blocks), +16)), blocks = ceil(C / 16). Each is one H x W window over its channel block.
 */
export function f32_global_avgpool_nhwc(p: usize, u0: i32, u1: i32): void {
  const c = load<i32>(p, POOL_C);
  const h = load<i32>(p, POOL_H), w = load<i32>(p, POOL_W);
  const xs = <usize>load<u32>(p, POOL_XS) << 2;
  const ys = <usize>load<u32>(p, POOL_YS) << 2;
  const x = <usize>load<u32>(p, POOL_X);
  const y = <usize>load<u32>(p, POOL_Y);
  const blocks = (c + POOL_GLOBAL_BLOCK - 1) / POOL_GLOBAL_BLOCK;
  const divisor = f32x4.splat(<f32>(h * w));
  const image = <usize>h * <usize>w * xs;
  for (let u = u0; u < u1; u++) {
    const n = u / blocks;
    const c0 = (u - n * blocks) * POOL_GLOBAL_BLOCK;
    const first = x + <usize>n * image + (<usize>c0 << 2);
    avgWindow(first, h, w, <usize>w * xs, xs, y + <usize>n * ys + (<usize>c0 << 2), min(POOL_GLOBAL_BLOCK, c - c0), divisor);
  }
}
