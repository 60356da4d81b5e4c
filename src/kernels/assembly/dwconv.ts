// Depthwise convolution, NHWC, direct (kernels.md sections 2.3 and 6 P4): f32_dwconv(p, u0, u1) runs work
// units [u0, u1) of the parameter block at p (DW_* in ../abi.ts); a unit is one output row of one image
// for one chunk of channels. Any kernel size, stride, dilation and zero padding.
//
// Per output row and group of 4 channels, the row is cut where the taps leave the image:
//   [0, lo)    left border: one pixel at a time, taps outside the image skipped
//   [lo, hi)   interior: 6 pixels at a time, no test per tap; per tap one weight vector is loaded for
//              the 6 pixels (7 loads per 6 multiply-adds, where XNNPACK's one pixel at a time needs 2 per 1);
//              3-wide kernels at horizontal stride and dilation 1 (MobileNetV2's stride-1 layers) 4
//              pixels at a time, each input pixel of a kernel row loaded once for its 3 taps (9 per 12)
//   [hi, OW)   right border, like the left
// (an interior of 3 to 5 pixels runs 3 at a time; the last group of the interior overlaps the one before
// it rather than falling back to single pixels). Rows of taps outside the image (top and bottom padding)
// are skipped whole. A last group of 1..3 channels loads and stores only its real channels (so it never
// reads past the tensor's end). The sums are stored, then residual and activation run as a pass over
// the row just written (still in L1): only that pass is compiled once per activation.
//
// Packed weights (conv-pack.ts): per group of 4 channels, (KH * KW + 1) rows of 4 floats:
//   bias[4], then w[ky = 0, kx = 0][4], w[0, 1][4], ...; channels past CH are zero.
import {
  ACT_HARDSIGMOID, ACT_HARDSWISH, ACT_LEAKY_RELU, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU,
  DW_ACT, DW_ALPHA, DW_BATCH, DW_C, DW_CH, DW_CHUNK, DW_DH, DW_DW, DW_H, DW_IN, DW_IN_PS, DW_KH, DW_KW, DW_LDC,
  DW_LDR, DW_OH, DW_OW, DW_PL, DW_PT, DW_R, DW_SH, DW_SW, DW_W, DW_WIDTH,
} from '../abi';
import { activate } from './activation';
import { loadPartial4, madd, storePartial4 } from './simd';

// The geometry of one output row, passed to the @inline helpers below as plain arguments (with
// --runtime stub a struct would be a heap allocation per call, on the shared memory):
//   w      the 4-channel group's packed weights   x      input image base + channel offset
//   iy0    input row of tap ky = 0                h, wd  input height and width
//   rb     input bytes per image row              ps     input pixel stride, bytes
//   kh, kw kernel; dh dilation (rows)             dx, dxb dilation (pixels, bytes)
//   sw     stride (pixels); pl padding left       o, ldc output row base + channel offset, pixel stride (bytes)
//   n      channels of the group (4, or 1..3 with `partial`, a compile-time constant)

// @ts-ignore: decorator
@inline function load4(p: usize, n: i32, partial: bool): v128 {
  return partial ? loadPartial4(p, n) : v128.load(p);
}

// @ts-ignore: decorator
@inline function store4(p: usize, v: v128, n: i32, partial: bool): void {
  if (partial) storePartial4(p, v, n);
  else v128.store(p, v);
}

/**
 * Output pixel ox, taps outside the image skipped. Two accumulators (even and odd kx): one chain of
 * dependent multiply-adds per pixel would wait out the add latency at every tap.
 */
// @ts-ignore: decorator
@inline function pixel(
  w: usize, n: i32, ox: i32, x: usize, iy0: i32, h: i32, wd: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dx: i32,
  sw: i32, pl: i32, o: usize, ldc: usize, partial: bool,
): void {
  let a = v128.load(w);
  let b = f32x4.splat(0.0);
  const ix0 = ox * sw - pl;
  for (let ky = 0; ky < kh; ky++) {
    const iy = iy0 + ky * dh;
    if (<u32>iy >= <u32>h) continue;
    let wp = w + 16 + <usize>(ky * kw) * 16;
    const row = x + <usize>iy * rb;
    let ix = ix0;
    let kx = 0;
    for (; kx + 1 < kw; kx += 2) {
      if (<u32>ix < <u32>wd) a = madd(load4(row + <usize>ix * ps, n, partial), v128.load(wp), a);
      ix += dx;
      if (<u32>ix < <u32>wd) b = madd(load4(row + <usize>ix * ps, n, partial), v128.load(wp, 16), b);
      ix += dx;
      wp += 32;
    }
    if (kx < kw && <u32>ix < <u32>wd) a = madd(load4(row + <usize>ix * ps, n, partial), v128.load(wp), a);
  }
  store4(o + <usize>ox * ldc, f32x4.add(a, b), n, partial);
}

/** Output pixels ox .. ox+2, every tap inside the image horizontally (interiors of 3 to 5 pixels). */
// @ts-ignore: decorator
@inline function group3(
  w: usize, n: i32, ox: i32, x: usize, iy0: i32, h: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dxb: usize,
  sw: i32, pl: i32, o: usize, ldc: usize, partial: bool,
): void {
  let a0 = v128.load(w);
  let a1 = a0, a2 = a0;
  const s1 = <usize>sw * ps;
  const s2 = s1 + s1;
  const x0 = x + <usize>(ox * sw - pl) * ps;
  let wv: v128;
  for (let ky = 0; ky < kh; ky++) {
    const iy = iy0 + ky * dh;
    if (<u32>iy >= <u32>h) continue;
    let wp = w + 16 + <usize>(ky * kw) * 16;
    let ip = x0 + <usize>iy * rb;
    for (let kx = kw; kx > 0; kx--) {
      wv = v128.load(wp);
      a0 = madd(load4(ip, n, partial), wv, a0);
      a1 = madd(load4(ip + s1, n, partial), wv, a1);
      a2 = madd(load4(ip + s2, n, partial), wv, a2);
      ip += dxb;
      wp += 16;
    }
  }
  let oo = o + <usize>ox * ldc;
  store4(oo, a0, n, partial);
  oo += ldc;
  store4(oo, a1, n, partial);
  oo += ldc;
  store4(oo, a2, n, partial);
}

/**
 * Output pixels ox .. ox+5, every tap inside the image horizontally. 6 accumulators + 1 weight + 6
 * inputs = 13 vector registers: V8 issues all of a loop body's loads before its arithmetic, so the loads
 * count too. A 4-pixel x 8-channel tile (8 + 10) spilled 2 accumulators and an input to the stack at
 * every tap (seen in --print-wasm-code); 7 pixels (15) measured no better than 6.
 */
// @ts-ignore: decorator
@inline function group6(
  w: usize, n: i32, ox: i32, x: usize, iy0: i32, h: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dxb: usize,
  sw: i32, pl: i32, o: usize, ldc: usize, partial: bool,
): void {
  let a0 = v128.load(w);
  let a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
  const s1 = <usize>sw * ps;
  const s2 = s1 + s1;
  const s3 = s2 + s1;
  const x0 = x + <usize>(ox * sw - pl) * ps;
  let wv: v128;
  for (let ky = 0; ky < kh; ky++) {
    const iy = iy0 + ky * dh;
    if (<u32>iy >= <u32>h) continue;
    let wp = w + 16 + <usize>(ky * kw) * 16;
    let ip = x0 + <usize>iy * rb;
    for (let kx = kw; kx > 0; kx--) {
      const iq = ip + s3;
      wv = v128.load(wp);
      a0 = madd(load4(ip, n, partial), wv, a0);
      a1 = madd(load4(ip + s1, n, partial), wv, a1);
      a2 = madd(load4(ip + s2, n, partial), wv, a2);
      a3 = madd(load4(iq, n, partial), wv, a3);
      a4 = madd(load4(iq + s1, n, partial), wv, a4);
      a5 = madd(load4(iq + s2, n, partial), wv, a5);
      ip += dxb;
      wp += 16;
    }
  }
  let oo = o + <usize>ox * ldc;
  store4(oo, a0, n, partial);
  oo += ldc;
  store4(oo, a1, n, partial);
  oo += ldc;
  store4(oo, a2, n, partial);
  oo += ldc;
  store4(oo, a3, n, partial);
  oo += ldc;
  store4(oo, a4, n, partial);
  oo += ldc;
  store4(oo, a5, n, partial);
}

/**
 * Output pixels ox .. ox+3 of a 3-wide kernel at horizontal stride and dilation 1: the 4 pixels' 3 taps
 * of a kernel row read 6 neighbouring input pixels, each loaded once and used by up to 3 taps (4
 * accumulators + 3 weights + 6 inputs = 13 vector registers): 9 loads per 12 multiply-adds. Measured
 * 20-30 % faster than group6 on MobileNetV2's stride-1 layers (A/B of two builds in one process).
 */
// @ts-ignore: decorator
@inline function quad3(
  w: usize, n: i32, ox: i32, x: usize, iy0: i32, h: i32, rb: usize, ps: usize, kh: i32, dh: i32,
  pl: i32, o: usize, ldc: usize, partial: bool,
): void {
  let a0 = v128.load(w);
  let a1 = a0, a2 = a0, a3 = a0;
  const p2 = ps + ps;
  const x0 = x + <usize>(ox - pl) * ps;
  let wp = w + 16;
  for (let ky = 0; ky < kh; ky++, wp += 48) {
    const iy = iy0 + ky * dh;
    if (<u32>iy >= <u32>h) continue;
    const q = x0 + <usize>iy * rb;
    const r = q + p2 + ps;
    const w0 = v128.load(wp);
    const w1 = v128.load(wp, 16);
    const w2 = v128.load(wp, 32);
    const i0 = load4(q, n, partial);
    const i1 = load4(q + ps, n, partial);
    const i2 = load4(q + p2, n, partial);
    const i3 = load4(r, n, partial);
    const i4 = load4(r + ps, n, partial);
    const i5 = load4(r + p2, n, partial);
    a0 = madd(i0, w0, a0); a1 = madd(i1, w0, a1); a2 = madd(i2, w0, a2); a3 = madd(i3, w0, a3);
    a0 = madd(i1, w1, a0); a1 = madd(i2, w1, a1); a2 = madd(i3, w1, a2); a3 = madd(i4, w1, a3);
    a0 = madd(i2, w2, a0); a1 = madd(i3, w2, a1); a2 = madd(i4, w2, a2); a3 = madd(i5, w2, a3);
  }
  let oo = o + <usize>ox * ldc;
  store4(oo, a0, n, partial); oo += ldc;
  store4(oo, a1, n, partial); oo += ldc;
  store4(oo, a2, n, partial); oo += ldc;
  store4(oo, a3, n, partial);
}

/**
 * One output row of one 4-channel group: borders a pixel at a time, the interior 6 (or, when narrower,
 * 3) pixels at a time, the last group of the interior overlapping the one before it (those pixels are
 * computed twice and stored twice, the same values) rather than falling back to single pixels.
 */
// @ts-ignore: decorator
@inline function row(
  w: usize, n: i32, x: usize, iy0: i32, h: i32, wd: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dx: i32, dxb: usize,
  sw: i32, pl: i32, lo: i32, hi: i32, ow: i32, o: usize, ldc: usize, partial: bool,
): void {
  let ox = 0;
  for (; ox < lo; ox++) pixel(w, n, ox, x, iy0, h, wd, rb, ps, kh, kw, dh, dx, sw, pl, o, ldc, partial);
  if (kw == 3 && sw == 1 && dx == 1 && hi - lo >= 4) {
    for (; ox + 4 <= hi; ox += 4) quad3(w, n, ox, x, iy0, h, rb, ps, kh, dh, pl, o, ldc, partial);
    if (ox < hi) quad3(w, n, hi - 4, x, iy0, h, rb, ps, kh, dh, pl, o, ldc, partial);
  } else if (hi - lo >= 6) {
    for (; ox + 6 <= hi; ox += 6) group6(w, n, ox, x, iy0, h, rb, ps, kh, kw, dh, dxb, sw, pl, o, ldc, partial);
    if (ox < hi) group6(w, n, hi - 6, x, iy0, h, rb, ps, kh, kw, dh, dxb, sw, pl, o, ldc, partial);
  } else if (hi - lo >= 3) {
    group3(w, n, ox, x, iy0, h, rb, ps, kh, kw, dh, dxb, sw, pl, o, ldc, partial);
    if (hi - lo > 3) group3(w, n, hi - 3, x, iy0, h, rb, ps, kh, kw, dh, dxb, sw, pl, o, ldc, partial);
  }
  for (ox = hi; ox < ow; ox++) pixel(w, n, ox, x, iy0, h, wd, rb, ps, kh, kw, dh, dx, sw, pl, o, ldc, partial);
  if (hi - lo < 3) for (ox = lo; ox < hi; ox++) pixel(w, n, ox, x, iy0, h, wd, rb, ps, kh, kw, dh, dx, sw, pl, o, ldc, partial);
}

/**
 * The epilogue of one output row of one channel group, run after the row's sums are stored (they are
 * still in L1): + residual, activation. As a pass of its own it is the only code copied per activation
 * and residual flag; inlined at every store of the pixel groups it made the module 400 KiB.
 */
// @ts-ignore: decorator
@inline function finishRow(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128, act: i32, res: bool): void {
  if (n >= 4) {
    for (let ox = 0; ox < ow; ox++) {
      let v = v128.load(o);
      if (res) v = f32x4.add(v, v128.load(r));
      v128.store(o, activate(v, act, alpha));
      o += ldc;
      r += ldr;
    }
  } else {
    for (let ox = 0; ox < ow; ox++) {
      let v = loadPartial4(o, n);
      if (res) v = f32x4.add(v, loadPartial4(r, n));
      storePartial4(o, activate(v, act, alpha), n);
      o += ldc;
      r += ldr;
    }
  }
}

function finishNone(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_NONE, true); }
function finishRelu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_RELU, false); }
function finishRelu6(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_RELU6, false); }
function finishSilu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_SILU, false); }
function finishHardswish(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_HARDSWISH, false); }
function finishSigmoid(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_SIGMOID, false); }
function finishLeakyRelu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_LEAKY_RELU, false); }
function finishHardsigmoid(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_HARDSIGMOID, false); }
function finishResRelu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_RELU, true); }
function finishResRelu6(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_RELU6, true); }
function finishResSilu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_SILU, true); }
function finishResHardswish(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_HARDSWISH, true); }
function finishResSigmoid(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_SIGMOID, true); }
function finishResLeakyRelu(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_LEAKY_RELU, true); }
function finishResHardsigmoid(o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void { finishRow(o, ldc, r, ldr, ow, n, alpha, ACT_HARDSIGMOID, true); }

/** Residual and activation of one row of one channel group; nothing when there is neither. */
function finish(act: i32, res: bool, o: usize, ldc: usize, r: usize, ldr: usize, ow: i32, n: i32, alpha: v128): void {
  if (res) {
    switch (act) {
      case ACT_RELU: finishResRelu(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_RELU6: finishResRelu6(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_SILU: finishResSilu(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_HARDSWISH: finishResHardswish(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_SIGMOID: finishResSigmoid(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_LEAKY_RELU: finishResLeakyRelu(o, ldc, r, ldr, ow, n, alpha); break;
      case ACT_HARDSIGMOID: finishResHardsigmoid(o, ldc, r, ldr, ow, n, alpha); break;
      default: finishNone(o, ldc, r, ldr, ow, n, alpha);
    }
    return;
  }
  switch (act) {
    case ACT_RELU: finishRelu(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_RELU6: finishRelu6(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_SILU: finishSilu(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_HARDSWISH: finishHardswish(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_SIGMOID: finishSigmoid(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_LEAKY_RELU: finishLeakyRelu(o, ldc, r, ldr, ow, n, alpha); break;
    case ACT_HARDSIGMOID: finishHardsigmoid(o, ldc, r, ldr, ow, n, alpha); break;
    default:
  }
}

/** The sums of one output row of one channel group (`partial`: 1..3 channels). */
function sumsFull(w: usize, x: usize, iy0: i32, h: i32, wd: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dx: i32, dxb: usize,
  sw: i32, pl: i32, lo: i32, hi: i32, ow: i32, o: usize, ldc: usize): void {
  row(w, 4, x, iy0, h, wd, rb, ps, kh, kw, dh, dx, dxb, sw, pl, lo, hi, ow, o, ldc, false);
}
function sumsPartial(w: usize, n: i32, x: usize, iy0: i32, h: i32, wd: i32, rb: usize, ps: usize, kh: i32, kw: i32, dh: i32, dx: i32, dxb: usize,
  sw: i32, pl: i32, lo: i32, hi: i32, ow: i32, o: usize, ldc: usize): void {
  row(w, n, x, iy0, h, wd, rb, ps, kh, kw, dh, dx, dxb, sw, pl, lo, hi, ow, o, ldc, true);
}

/** Work units [u0, u1) of the depthwise convolution at p (see ../abi.ts DW_*). */
export function f32_dwconv(p: usize, u0: i32, u1: i32): void {
  const input = <usize>load<u32>(p, DW_IN);
  const ps = <usize>load<u32>(p, DW_IN_PS) << 2;
  const weights = <usize>load<u32>(p, DW_W);
  const out = <usize>load<u32>(p, DW_C);
  const ldc = <usize>load<u32>(p, DW_LDC) << 2;
  const resid = <usize>load<u32>(p, DW_R);
  const ldr = <usize>load<u32>(p, DW_LDR) << 2;
  const h = load<i32>(p, DW_H);
  const wd = load<i32>(p, DW_WIDTH);
  const oh = load<i32>(p, DW_OH);
  const ow = load<i32>(p, DW_OW);
  const ch = load<i32>(p, DW_CH);
  const kh = load<i32>(p, DW_KH);
  const kw = load<i32>(p, DW_KW);
  const sh = load<i32>(p, DW_SH);
  const sw = load<i32>(p, DW_SW);
  const dh = load<i32>(p, DW_DH);
  const dx = load<i32>(p, DW_DW);
  const pt = load<i32>(p, DW_PT);
  const pl = load<i32>(p, DW_PL);
  const chunk = load<i32>(p, DW_CHUNK);
  const rows = load<i32>(p, DW_BATCH) * oh;
  const act = load<i32>(p, DW_ACT);
  const res = resid != 0;
  const epilogue = res || act != ACT_NONE;
  const alpha = v128.load32_splat(p, DW_ALPHA);
  const rb = <usize>wd * ps;
  const dxb = <usize>dx * ps;
  const groupBytes = <usize>(kh * kw + 1) * 16;
  // Interior columns [lo, hi): every horizontal tap inside the image.
  const lo = min((pl + sw - 1) / sw, ow);
  const span = wd - 1 + pl - (kw - 1) * dx;
  const hi = max(lo, min(span >= 0 ? span / sw + 1 : 0, ow));
  for (let u = u0; u < u1; u++) {
    const part = u / rows;
    const orow = u - part * rows;
    const b = orow / oh;
    const iy0 = (orow - b * oh) * sh - pt;
    const c0 = part * chunk;
    const c1 = min(c0 + chunk, ch);
    const image = input + <usize>b * <usize>h * rb;
    const o = out + <usize>orow * <usize>ow * ldc;
    const r = resid + <usize>orow * <usize>ow * ldr;
    for (let c = c0; c < c1; c += 4) {
      const cb = <usize>c * 4;
      const w = weights + <usize>(c >> 2) * groupBytes;
      const n = min(4, c1 - c);
      if (n == 4) sumsFull(w, image + cb, iy0, h, wd, rb, ps, kh, kw, dh, dx, dxb, sw, pl, lo, hi, ow, o + cb, ldc);
      else sumsPartial(w, n, image + cb, iy0, h, wd, rb, ps, kh, kw, dh, dx, dxb, sw, pl, lo, hi, ow, o + cb, ldc);
      if (epilogue) finish(act, res, o + cb, ldc, r + cb, ldr, ow, n, alpha);
    }
  }
}
