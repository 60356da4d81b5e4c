// Packs convolution weights once, at load, in the order the convolution kernels stream them
// (kernels.md section 1.3, XNNPACK's goki packing).
//
// IGEMM (f32_igemm_4x8): PyTorch weight (Cout, K, KH, KW) with K = Cin / groups and N = Cout / groups.
// Per group, per panel of 8 output channels of the group, (TAPS * K + 1) rows of 8 floats:
//
//   group g, panel j:  bias[gN + 8j .. gN + 8j + 7]
//                      W[., k = 0, tap 0]  W[., 1, tap 0] ... W[., K-1, tap 0]    <- tap 0 = (ky 0, kx 0)
//                      W[., 0, tap 1]      ...                                     <- tap 1 = (ky 0, kx 1)
//                      ...                                     (each row: the 8 channels' weights)
//   channels past N in the group's last panel are zero; panels follow each other, then the next group.
//
// Tap-major rows are also the layout of the "row taps" IGEMM (the padded small-channel stem, conv.ts):
// there row ky reads KW * K contiguous floats, (kx, k) in that order, which is taps (ky, kx), k inner.
//
// Depthwise (f32_dwconv): weight (C, 1, KH, KW). Per group of 4 channels, (KH * KW + 1) rows of 4:
//   bias[4c .. 4c + 3], W[4c.., tap 0], W[4c.., tap 1], ...        channels past C are zero
import { FlowinferError } from '../errors.ts';
import { GEMM_NR } from './abi.ts';

/** Floats of the packed IGEMM weights. */
export function packedConvFloats(outChannels: number, groups: number, k: number, taps: number): number {
  return groups * Math.ceil(outChannels / groups / GEMM_NR) * (taps * k + 1) * GEMM_NR;
}

function checkDestination(what: string, dst: Float32Array, floats: number): void {
  if (dst.length !== floats || dst.byteOffset % 16 !== 0) {
    throw new FlowinferError(
      `${what}: destination holds ${dst.length} floats at byte ${dst.byteOffset}, expected ${floats} floats at a 16-byte aligned byte offset`,
    );
  }
}

function checkSizes(what: string, weights: Float32Array, expected: number, bias: Float32Array | undefined, outChannels: number): void {
  if (weights.length !== expected) throw new FlowinferError(`${what}: weights hold ${weights.length} floats, expected ${expected}`);
  if (bias !== undefined && bias.length !== outChannels) {
    throw new FlowinferError(`${what}: bias holds ${bias.length} floats, expected ${outChannels}`);
  }
}

/**
 * Writes the IGEMM panels of `weights` (Cout, K, KH, KW) and `bias` (Cout, or none = zeros) into `dst`, a
 * 16-byte aligned view of packedConvFloats(...) floats.
 */
export function packConvWeights(
  dst: Float32Array, weights: Float32Array, bias: Float32Array | undefined,
  outChannels: number, groups: number, k: number, taps: number,
): void {
  if (![outChannels, groups, k, taps].every((v) => Number.isInteger(v) && v >= 1) || outChannels % groups !== 0) {
    throw new FlowinferError(`packConvWeights: Cout=${outChannels}, groups=${groups}, K=${k}, taps=${taps} must be positive integers, groups dividing Cout`);
  }
  checkSizes('packConvWeights', weights, outChannels * k * taps, bias, outChannels);
  checkDestination('packConvWeights', dst, packedConvFloats(outChannels, groups, k, taps));
  const n = outChannels / groups;
  const rowsPerPanel = taps * k + 1;
  let at = 0;
  for (let g = 0; g < groups; g++) {
    for (let j0 = 0; j0 < n; j0 += GEMM_NR) {
      dst.fill(0, at, at + rowsPerPanel * GEMM_NR);
      const width = Math.min(GEMM_NR, n - j0);
      for (let j = 0; j < width; j++) {
        const oc = g * n + j0 + j;
        if (bias !== undefined) dst[at + j] = bias[oc]!;
        // weights[oc][kk][tap] -> row 1 + tap * K + kk
        for (let kk = 0; kk < k; kk++) {
          const src = (oc * k + kk) * taps;
          for (let t = 0; t < taps; t++) dst[at + (1 + t * k + kk) * GEMM_NR + j] = weights[src + t]!;
        }
      }
      at += rowsPerPanel * GEMM_NR;
    }
  }
}

/** Floats of the packed depthwise weights of `channels` channels and `taps` taps. */
export function packedDwFloats(channels: number, taps: number): number {
  return Math.ceil(channels / 4) * (taps + 1) * 4;
}

/** Writes the depthwise groups of `weights` (C, 1, KH, KW) and `bias` into `dst` (packedDwFloats floats). */
export function packDwWeights(dst: Float32Array, weights: Float32Array, bias: Float32Array | undefined, channels: number, taps: number): void {
  if (![channels, taps].every((v) => Number.isInteger(v) && v >= 1)) {
    throw new FlowinferError(`packDwWeights: C=${channels}, taps=${taps} must be positive integers`);
  }
  checkSizes('packDwWeights', weights, channels * taps, bias, channels);
  checkDestination('packDwWeights', dst, packedDwFloats(channels, taps));
  dst.fill(0);
  for (let c = 0; c < channels; c++) {
    const group = (c >> 2) * (taps + 1) * 4;
    const lane = c & 3;
    if (bias !== undefined) dst[group + lane] = bias[c]!;
    for (let t = 0; t < taps; t++) dst[group + (1 + t) * 4 + lane] = weights[c * taps + t]!;
  }
}
