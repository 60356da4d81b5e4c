// Indirect-GEMM convolution entry point (kernels.md section 2.2): f32_igemm_4x8(p, u0, u1) runs work units
// [u0, u1) of the IGEMM parameter block at p (layout in ../abi.ts). A unit is one tile of 4 output pixels
// of one image times CHUNK panels (8 output channels each) of one group; units are numbered tile-fastest,
// so a range of units walks the tiles of one image with the same weight chunk, which stays in L2 while
// the tiles' input pixels pass through L1 (the GEMM's blocking, gemm.ts).
import {
  ACT_HARDSIGMOID, ACT_HARDSWISH, ACT_LEAKY_RELU, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU,
  IGEMM_ACT, IGEMM_ALPHA, IGEMM_BATCH, IGEMM_C, IGEMM_C_IMAGE, IGEMM_CHUNK, IGEMM_IN, IGEMM_IN_IMAGE, IGEMM_IND,
  IGEMM_K, IGEMM_LDC, IGEMM_LDR, IGEMM_N, IGEMM_PIXELS, IGEMM_R, IGEMM_TAPS, IGEMM_W, IGEMM_ZERO,
} from '../abi';
import { igemm4x8 } from './igemm-4x8';

// @ts-ignore: decorator
@inline function igemmUnits(p: usize, u0: i32, u1: i32, act: i32, res: bool): void {
  const input = <usize>load<u32>(p, IGEMM_IN);
  const ind = <usize>load<u32>(p, IGEMM_IND);
  const w = <usize>load<u32>(p, IGEMM_W);
  const c = <usize>load<u32>(p, IGEMM_C);
  const ldc = <usize>load<u32>(p, IGEMM_LDC) << 2;
  const r = <usize>load<u32>(p, IGEMM_R);
  const ldr = <usize>load<u32>(p, IGEMM_LDR) << 2;
  const pixels = load<i32>(p, IGEMM_PIXELS);
  const n = load<i32>(p, IGEMM_N);
  const k = load<i32>(p, IGEMM_K);
  const taps = load<i32>(p, IGEMM_TAPS);
  const chunk = load<i32>(p, IGEMM_CHUNK);
  const zero = <usize>load<u32>(p, IGEMM_ZERO);
  const batch = load<i32>(p, IGEMM_BATCH);
  const inImage = <usize>load<u32>(p, IGEMM_IN_IMAGE);
  const cImage = <usize>load<u32>(p, IGEMM_C_IMAGE);
  const alpha = v128.load32_splat(p, IGEMM_ALPHA);
  const tiles = (pixels + 3) >> 2;
  const panels = (n + 7) >> 3;
  const chunks = (panels + chunk - 1) / chunk;
  const panelBytes = (<usize>taps * <usize>k + 1) * 32;
  const groupBytes = <usize>panels * panelBytes;
  const last = pixels - 1;
  for (let u = u0; u < u1; u++) {
    const tile = u % tiles;
    let rest = u / tiles;
    const b = rest % batch;
    rest /= batch;
    const g = rest / chunks;
    const j0 = (rest - g * chunks) * chunk;
    const j1 = min(j0 + chunk, panels);
    const base = input + <usize>b * inImage + <usize>(g * k) * 4;
    // Pixels past the last one repeat it (the indirection does too): identical values stored twice.
    const q0 = tile << 2;
    const q1 = min(q0 + 1, last);
    const q2 = min(q0 + 2, last);
    const q3 = min(q0 + 3, last);
    const image = <usize>b * <usize>pixels;
    const channel = <usize>(g * n) * 4;
    const cb = c + <usize>b * cImage + channel;
    const rb = r + channel;
    const c0 = cb + <usize>q0 * ldc, c1 = cb + <usize>q1 * ldc;
    const c2 = cb + <usize>q2 * ldc, c3 = cb + <usize>q3 * ldc;
    const r0 = rb + (image + <usize>q0) * ldr, r1 = rb + (image + <usize>q1) * ldr;
    const r2 = rb + (image + <usize>q2) * ldr, r3 = rb + (image + <usize>q3) * ldr;
    const tileInd = ind + <usize>tile * <usize>taps * 16;
    const wg = w + <usize>g * groupBytes;
    for (let j = j0; j < j1; j++) {
      const col = <usize>j * 32;
      igemm4x8(
        tileInd, taps, k, base, zero, wg + <usize>j * panelBytes,
        c0 + col, c1 + col, c2 + col, c3 + col, n - (j << 3), act, alpha,
        res, r0 + col, r1 + col, r2 + col, r3 + col,
      );
    }
  }
}

// One copy of the loops per activation and residual flag, so the epilogue holds no branch.
function none(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_NONE, false); }
function relu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_RELU, false); }
function relu6(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_RELU6, false); }
function silu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_SILU, false); }
function hardswish(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_HARDSWISH, false); }
function sigmoid(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_SIGMOID, false); }
function leakyRelu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_LEAKY_RELU, false); }
function hardsigmoid(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_HARDSIGMOID, false); }
function resNone(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_NONE, true); }
function resRelu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_RELU, true); }
function resRelu6(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_RELU6, true); }
function resSilu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_SILU, true); }
function resHardswish(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_HARDSWISH, true); }
function resSigmoid(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_SIGMOID, true); }
function resLeakyRelu(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_LEAKY_RELU, true); }
function resHardsigmoid(p: usize, u0: i32, u1: i32): void { igemmUnits(p, u0, u1, ACT_HARDSIGMOID, true); }

/** Work units [u0, u1) of the convolution at p (see ../abi.ts IGEMM_*). */
export function f32_igemm_4x8(p: usize, u0: i32, u1: i32): void {
  const act = load<i32>(p, IGEMM_ACT);
  if (load<u32>(p, IGEMM_R) != 0) {
    switch (act) {
      case ACT_RELU: resRelu(p, u0, u1); break;
      case ACT_RELU6: resRelu6(p, u0, u1); break;
      case ACT_SILU: resSilu(p, u0, u1); break;
      case ACT_HARDSWISH: resHardswish(p, u0, u1); break;
      case ACT_SIGMOID: resSigmoid(p, u0, u1); break;
      case ACT_LEAKY_RELU: resLeakyRelu(p, u0, u1); break;
      case ACT_HARDSIGMOID: resHardsigmoid(p, u0, u1); break;
      default: resNone(p, u0, u1);
    }
    return;
  }
  switch (act) {
    case ACT_RELU: relu(p, u0, u1); break;
    case ACT_RELU6: relu6(p, u0, u1); break;
    case ACT_SILU: silu(p, u0, u1); break;
    case ACT_HARDSWISH: hardswish(p, u0, u1); break;
    case ACT_SIGMOID: sigmoid(p, u0, u1); break;
    case ACT_LEAKY_RELU: leakyRelu(p, u0, u1); break;
    case ACT_HARDSIGMOID: hardsigmoid(p, u0, u1); break;
    default: none(p, u0, u1);
  }
}
