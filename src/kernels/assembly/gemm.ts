// Packed SGEMM entry points: C[M, N] = act(A[M, K] * W[N, K]^T + bias [+ R]) over a GEMM parameter block
// (layout in ../abi.ts; R, a residual laid out like C, when GEMM_R is set). Two ways to split one GEMM
// between threads:
//   f32_gemm_4x8(p, m0, m1, n0, n1)  a static block: rows [m0, m1), panels [n0, n1) (panel = 8 columns);
//   f32_gemm_4x8_tiles(p)            dynamic: every caller takes TILE_M x TILE_N tiles from the atomic
//                                    counter p + GEMM_NEXT until none is left (kernels.md section 3).
// Inside a block the loops run: chunks of TILE_N panels, then 4-row groups, then the chunk's panels. The
// 4 A rows stay in L1 while the chunk's panels stream from L2, where the chunk stays for all the rows
// (the planner in ../gemm.ts sizes TILE_N to half of the L2). Without the chunks a 512^3 GEMM re-read
// its whole 1 MiB of weights from L3 for every 4 rows.
import {
  ACT_HARDSIGMOID, ACT_HARDSWISH, ACT_LEAKY_RELU, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU,
  GEMM_A, GEMM_ACT, GEMM_ALPHA, GEMM_C, GEMM_K, GEMM_LDA, GEMM_LDC, GEMM_LDR, GEMM_M, GEMM_MR, GEMM_N, GEMM_NEXT,
  GEMM_NR, GEMM_R, GEMM_TILE_M, GEMM_TILE_N, GEMM_W,
} from '../abi';
import { gemm4x8 } from './gemm-4x8';

// @ts-ignore: decorator
@inline function gemmBlock(p: usize, m0: i32, m1: i32, n0: i32, n1: i32, act: i32, res: bool): void {
  const a = <usize>load<u32>(p, GEMM_A);
  const lda = <usize>load<u32>(p, GEMM_LDA) << 2;
  const w = <usize>load<u32>(p, GEMM_W);
  const c = <usize>load<u32>(p, GEMM_C);
  const ldc = <usize>load<u32>(p, GEMM_LDC) << 2;
  const n = load<i32>(p, GEMM_N);
  const k = load<i32>(p, GEMM_K);
  const chunk = load<i32>(p, GEMM_TILE_N);
  const alpha = v128.load32_splat(p, GEMM_ALPHA);
  const r = <usize>load<u32>(p, GEMM_R);
  const ldr = <usize>load<u32>(p, GEMM_LDR) << 2;
  const panelBytes = (<usize>k + 1) * (GEMM_NR * 4);
  for (let j0 = n0; j0 < n1; j0 += chunk) {
    const j1 = min(j0 + chunk, n1);
    for (let m = m0; m < m1; m += GEMM_MR) {
      const a0 = a + <usize>m * lda;
      const c0 = c + <usize>m * ldc;
      const a1 = m + 1 < m1 ? a0 + lda : a0;
      const c1 = m + 1 < m1 ? c0 + ldc : c0;
      const a2 = m + 2 < m1 ? a1 + lda : a1;
      const c2 = m + 2 < m1 ? c1 + ldc : c1;
      const a3 = m + 3 < m1 ? a2 + lda : a2;
      const c3 = m + 3 < m1 ? c2 + ldc : c2;
      const r0 = r + <usize>m * ldr;
      const r1 = m + 1 < m1 ? r0 + ldr : r0;
      const r2 = m + 2 < m1 ? r1 + ldr : r1;
      const r3 = m + 3 < m1 ? r2 + ldr : r2;
      for (let j = j0; j < j1; j++) {
        const col = <usize>j * (GEMM_NR * 4);
        gemm4x8(
          a0, a1, a2, a3, w + <usize>j * panelBytes, k,
          c0 + col, c1 + col, c2 + col, c3 + col, n - j * GEMM_NR, act, alpha,
          res, r0 + col, r1 + col, r2 + col, r3 + col,
        );
      }
    }
  }
}

// One copy of the loops per activation and residual flag, so the epilogue holds no branch.
function blockNone(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_NONE, false); }
function blockRelu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_RELU, false); }
function blockRelu6(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_RELU6, false); }
function blockSilu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_SILU, false); }
function blockHardswish(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_HARDSWISH, false); }
function blockSigmoid(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_SIGMOID, false); }
function blockLeakyRelu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_LEAKY_RELU, false); }
// convolution kernels: Hardsigmoid, and every activation after a residual add (GEMM_R != 0)
function blockHardsigmoid(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_HARDSIGMOID, false); }
function blockResNone(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_NONE, true); }
function blockResRelu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_RELU, true); }
function blockResRelu6(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_RELU6, true); }
function blockResSilu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_SILU, true); }
function blockResHardswish(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_HARDSWISH, true); }
function blockResSigmoid(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_SIGMOID, true); }
function blockResLeakyRelu(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_LEAKY_RELU, true); }
function blockResHardsigmoid(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void { gemmBlock(p, m0, m1, n0, n1, ACT_HARDSIGMOID, true); }

// @ts-ignore: decorator
@inline function block(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void {
  if (load<u32>(p, GEMM_R) != 0) {
    switch (load<i32>(p, GEMM_ACT)) {
      case ACT_RELU: blockResRelu(p, m0, m1, n0, n1); break;
      case ACT_RELU6: blockResRelu6(p, m0, m1, n0, n1); break;
      case ACT_SILU: blockResSilu(p, m0, m1, n0, n1); break;
      case ACT_HARDSWISH: blockResHardswish(p, m0, m1, n0, n1); break;
      case ACT_SIGMOID: blockResSigmoid(p, m0, m1, n0, n1); break;
      case ACT_LEAKY_RELU: blockResLeakyRelu(p, m0, m1, n0, n1); break;
      case ACT_HARDSIGMOID: blockResHardsigmoid(p, m0, m1, n0, n1); break;
      default: blockResNone(p, m0, m1, n0, n1);
    }
    return;
  }
  switch (load<i32>(p, GEMM_ACT)) {
    case ACT_RELU: blockRelu(p, m0, m1, n0, n1); break;
    case ACT_RELU6: blockRelu6(p, m0, m1, n0, n1); break;
    case ACT_SILU: blockSilu(p, m0, m1, n0, n1); break;
    case ACT_HARDSWISH: blockHardswish(p, m0, m1, n0, n1); break;
    case ACT_SIGMOID: blockSigmoid(p, m0, m1, n0, n1); break;
    case ACT_LEAKY_RELU: blockLeakyRelu(p, m0, m1, n0, n1); break;
    case ACT_HARDSIGMOID: blockHardsigmoid(p, m0, m1, n0, n1); break;
    default: blockNone(p, m0, m1, n0, n1);
  }
}

/**
 * Rows [m0, m1) x panels [n0, n1) of the GEMM described at p (m1 <= M, n1 <= ceil(N / 8)), walked in
 * chunks of TILE_N panels.
 */
export function f32_gemm_4x8(p: usize, m0: i32, m1: i32, n0: i32, n1: i32): void {
  block(p, m0, m1, n0, n1);
}

/**
 * Takes tiles from the counter at p + GEMM_NEXT until all are taken; returns how many this caller ran.
 * Tile t covers panel block t / tilesM (so consecutive tiles share their weights) and row block t % tilesM.
 */
export function f32_gemm_4x8_tiles(p: usize): i32 {
  const m = load<i32>(p, GEMM_M);
  const panels = (load<i32>(p, GEMM_N) + GEMM_NR - 1) / GEMM_NR;
  const tileM = load<i32>(p, GEMM_TILE_M);
  const tileN = load<i32>(p, GEMM_TILE_N);
  const tilesM = (m + tileM - 1) / tileM;
  const total = tilesM * ((panels + tileN - 1) / tileN);
  let done = 0;
  for (let t = atomic.add<i32>(p + GEMM_NEXT, 1); t < total; t = atomic.add<i32>(p + GEMM_NEXT, 1)) {
    const m0 = (t % tilesM) * tileM;
    const n0 = (t / tilesM) * tileN;
    block(p, m0, min(m0 + tileM, m), n0, min(n0 + tileN, panels));
    done++;
  }
  return done;
}
