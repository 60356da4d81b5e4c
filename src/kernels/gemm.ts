// Glue of the packed SGEMM kernel: validates a call, plans its tiles, writes its parameter block.
// The kernel itself never checks anything; everything it reads was checked here.
import { FlowinferError } from '../errors.ts';
import {
  GEMM_A,
  GEMM_ACT,
  GEMM_ALPHA,
  GEMM_C,
  GEMM_K,
  GEMM_LDA,
  GEMM_LDC,
  GEMM_LDR,
  GEMM_M,
  GEMM_MR,
  GEMM_N,
  GEMM_NEXT,
  GEMM_NR,
  GEMM_PARAMS_BYTES,
  GEMM_R,
  GEMM_TILE_M,
  GEMM_TILE_N,
  GEMM_W,
  RESERVED_BYTES,
} from './abi.ts';
import { activationCode, type Activation } from './activation.ts';
import { packedGemmFloats } from './pack.ts';
import type { SharedMemory } from './wasm.ts';
import { paramBlock } from './eltwise-regions.ts';

/** C[m, n] = act(bias[n] + sum_k A[m, k] * W[n, k]); a, w, c are byte offsets, lda/ldc strides in floats. */
export interface GemmCall {
  readonly a: number;
  readonly lda: number;
  /** Packed panels (pack.ts), 16-byte aligned. */
  readonly w: number;
  readonly c: number;
  readonly ldc: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly activation?: Activation;
  /** LeakyReLU slope. */
  readonly alpha?: number;
  /** Added before the activation: C = act(A W^T + bias + R); R is M x N with row stride ldr floats. */
  readonly residual?: { readonly r: number; readonly ldr: number };
}

/** How f32_gemm_4x8_tiles cuts the GEMM: tileM rows x tileN panels per tile, `count` tiles. */
export interface GemmTiles {
  readonly tileM: number;
  readonly tileN: number;
  readonly count: number;
}

// A tile's weight block (tileN panels) should stay in L2 while the tile's rows stream past it: half of
// the 1 MiB per-core L2 of the development machine (lscpu -C), as kernels.md section 1.4 suggests.
const TILE_WEIGHT_BYTES = 512 * 1024;
// Tiles per thread when splitting. On this VM a woken worker sometimes starts 1-2.5 ms late and the same
// call takes 2.5-5.5 ms from one run to the next (other VMs share the host), so the earlier worker must
// be able to take most of the tiles: measured with bench/kernels/tile-plans.ts (best of 40 interleaved
// rounds, 5 GEMM shapes, both builds), 16 was the best or within noise of it everywhere; XNNPACK's
// minimum of 5 was up to 20 % slower.
const TILES_PER_THREAD = 16;

/** Tiles for `threads` workers: weight blocks of at most TILE_WEIGHT_BYTES, >= tilesPerThread per worker. */
export function planGemmTiles(m: number, n: number, k: number, threads = 1, tilesPerThread = TILES_PER_THREAD): GemmTiles {
  const panels = Math.ceil(n / GEMM_NR);
  const rowGroups = Math.ceil(m / GEMM_MR);
  const wanted = threads > 1 ? tilesPerThread * threads : 1;
  let tileN = Math.max(1, Math.min(panels, Math.floor(TILE_WEIGHT_BYTES / ((k + 1) * GEMM_NR * 4))));
  // Few rows (M = 49 at 7x7): split the panels too, so there are still `wanted` tiles (kernels.md section 3).
  tileN = Math.min(tileN, Math.ceil(panels / Math.ceil(wanted / rowGroups)));
  const tilesN = Math.ceil(panels / tileN);
  const tilesM = Math.min(rowGroups, Math.max(1, Math.ceil(wanted / tilesN)));
  const tileM = Math.ceil(rowGroups / tilesM) * GEMM_MR;
  return { tileM, tileN, count: Math.ceil(m / tileM) * tilesN };
}

/** Throws unless the kernel can run `call` inside a memory of `memoryBytes` bytes. */
export function validateGemm(call: GemmCall, memoryBytes: number): void {
  const { a, lda, w, c, ldc, m, n, k } = call;
  const fail = (problem: string): never => {
    throw new FlowinferError(`GEMM M=${m} N=${n} K=${k} (a=${a} lda=${lda} w=${w} c=${c} ldc=${ldc}): ${problem}`);
  };
  for (const [name, value] of Object.entries({ m, n, k, lda, ldc })) {
    if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive integer`);
  }
  if (lda < k) fail('lda must be >= K');
  if (ldc < n) fail('ldc must be >= N');
  if (a % 4 !== 0 || c % 4 !== 0) fail('a and c must be 4-byte aligned');
  if (w % 16 !== 0) fail('packed weights must be 16-byte aligned');
  const aEnd = a + ((m - 1) * lda + k) * 4;
  const wEnd = w + packedGemmFloats(n, k) * 4;
  const cEnd = c + ((m - 1) * ldc + n) * 4;
  if (Math.min(a, w, c) < RESERVED_BYTES) fail(`operands must lie in the arena (at or above ${RESERVED_BYTES})`);
  if (Math.max(aEnd, wEnd, cEnd) > memoryBytes) fail(`operands end past the memory (${memoryBytes} bytes)`);
  if (overlaps(c, ldc, n, m, a, lda, k) || (c < wEnd && w < cEnd)) fail('C overlaps A or the weights');
  if (call.activation === 'leaky_relu' && !Number.isFinite(call.alpha ?? 0)) fail('alpha must be finite');
  if (call.residual) {
    const { r, ldr } = call.residual;
    if (!Number.isInteger(ldr) || ldr < n) fail(`residual row stride ${ldr} must be >= N`);
    if (r % 4 !== 0 || r < RESERVED_BYTES) fail(`residual at ${r} must be 4-byte aligned and in the arena`);
    if (r + ((m - 1) * ldr + n) * 4 > memoryBytes) fail('the residual ends past the memory');
    if (overlaps(c, ldc, n, m, r, ldr, n)) fail('the residual overlaps C');
  }
}

/**
 * Whether two row-strided float regions share a float. Regions with equal strides (e.g. channel slices of
 * one NHWC tensor) are compared column-wise; otherwise their byte ranges are.
 */
function overlaps(x: number, xStride: number, xCols: number, rows: number, y: number, yStride: number, yCols: number): boolean {
  const xEnd = x + ((rows - 1) * xStride + xCols) * 4;
  const yEnd = y + ((rows - 1) * yStride + yCols) * 4;
  if (xEnd <= y || yEnd <= x) return false;
  if (xStride !== yStride || (x - y) % 4 !== 0) return true;
  const rowBytes = xStride * 4;
  const shift = (((x - y) % rowBytes) + rowBytes) % rowBytes; // x's column start relative to y's, in bytes
  const xFrom = shift / 4;
  return xFrom < yCols || xFrom + xCols > xStride;
}

/**
 * Validates `call` and writes its parameter block at byte `at` (16-byte aligned, GEMM_PARAMS_BYTES) of the
 * shared memory, with the tile counter reset: any number of threads may then run f32_gemm_4x8_tiles(at).
 */
export function writeGemmParams(memory: SharedMemory, at: number, call: GemmCall, tiles: GemmTiles): void {
  const buffer = memory.buffer;
  validateGemm(call, buffer.byteLength);
  if (!(Number.isInteger(tiles.tileM) && tiles.tileM >= GEMM_MR && tiles.tileM % GEMM_MR === 0 && Number.isInteger(tiles.tileN) && tiles.tileN >= 1)) {
    throw new FlowinferError(`GEMM tiles ${tiles.tileM} x ${tiles.tileN}: tileM must be a positive multiple of ${GEMM_MR}, tileN a positive integer`);
  }
  const { u32, f32 } = paramBlock(memory, at, GEMM_PARAMS_BYTES, 'GEMM');
  u32[GEMM_A / 4] = call.a;
  u32[GEMM_LDA / 4] = call.lda;
  u32[GEMM_W / 4] = call.w;
  u32[GEMM_C / 4] = call.c;
  u32[GEMM_LDC / 4] = call.ldc;
  u32[GEMM_M / 4] = call.m;
  u32[GEMM_N / 4] = call.n;
  u32[GEMM_K / 4] = call.k;
  u32[GEMM_ACT / 4] = activationCode(call.activation ?? 'none');
  f32[GEMM_ALPHA / 4] = call.alpha ?? 0;
  u32[GEMM_TILE_M / 4] = tiles.tileM;
  u32[GEMM_TILE_N / 4] = tiles.tileN;
  u32[GEMM_R / 4] = call.residual?.r ?? 0;
  u32[GEMM_LDR / 4] = call.residual?.ldr ?? 0;
  // Release store: a worker that sees the counter at 0 also sees the fields above.
  Atomics.store(new Int32Array(buffer, at, GEMM_PARAMS_BYTES / 4), GEMM_NEXT / 4, 0);
}

/** Re-arms the tile counter of a parameter block so the same GEMM can run again. */
export function resetGemmTiles(memory: SharedMemory, at: number): void {
  Atomics.store(new Int32Array(memory.buffer, at + GEMM_NEXT, 1), 0, 0);
}
