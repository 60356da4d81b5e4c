// Packs GEMM weights once, at load, into the panels the micro-kernel streams (kernels.md section 1.3).
//
// W is [N, K] row-major (PyTorch nn.Linear weight; nn.Conv2d 1x1 weight [Cout, Cin, 1, 1]). Panel j
// holds output channels 8j..8j+7 as (1 + K) rows of 8 floats, (K + 1) * 32 bytes:
//
//   panel j:  bias[8j .. 8j+7]
//             W[8j .. 8j+7, 0]      <- the 8 weights of k = 0, one per output channel
//             W[8j .. 8j+7, 1]
//             ...
//             W[8j .. 8j+7, K-1]
//   panel j+1 follows directly (32-byte multiple, so every panel stays 16-byte aligned)
//
// The last panel is zero-padded past N: the kernel always computes 8 columns and stores only N mod 8.
import { FlowinferError } from '../errors.ts';
import { GEMM_NR } from './abi.ts';

/** Floats of the packed weights of N output channels over K inputs. */
export function packedGemmFloats(n: number, k: number): number {
  return Math.ceil(n / GEMM_NR) * (k + 1) * GEMM_NR;
}

/**
 * Writes the panels of `weights` ([N, K] row-major) and `bias` (N floats, or none = zeros) into `dst`,
 * which must be a 16-byte aligned view of packedGemmFloats(n, k) floats (usually over the shared arena).
 */
export function packGemmWeights(
  dst: Float32Array,
  weights: Float32Array,
  bias: Float32Array | undefined,
  n: number,
  k: number,
): void {
  const floats = packedGemmFloats(n, k);
  if (!(n >= 1 && k >= 1 && Number.isInteger(n) && Number.isInteger(k))) {
    throw new FlowinferError(`packGemmWeights: N=${n}, K=${k} must be positive integers`);
  }
  if (weights.length !== n * k) {
    throw new FlowinferError(`packGemmWeights: weights hold ${weights.length} floats, expected N*K = ${n}*${k} = ${n * k}`);
  }
  if (bias !== undefined && bias.length !== n) {
    throw new FlowinferError(`packGemmWeights: bias holds ${bias.length} floats, expected N = ${n}`);
  }
  if (dst.length !== floats || dst.byteOffset % 16 !== 0) {
    throw new FlowinferError(
      `packGemmWeights: destination holds ${dst.length} floats at byte ${dst.byteOffset}, ` +
        `expected ${floats} floats at a 16-byte aligned byte offset`,
    );
  }
  const panelFloats = (k + 1) * GEMM_NR;
  for (let n0 = 0, panel = 0; n0 < n; n0 += GEMM_NR, panel += panelFloats) {
    const width = Math.min(GEMM_NR, n - n0);
    dst.fill(0, panel, panel + panelFloats);
    for (let j = 0; j < width; j++) {
      if (bias !== undefined) dst[panel + j] = bias[n0 + j]!;
      const row = (n0 + j) * k;
      for (let kk = 0, at = panel + GEMM_NR + j; kk < k; kk++, at += GEMM_NR) dst[at] = weights[row + kk]!;
    }
  }
}
