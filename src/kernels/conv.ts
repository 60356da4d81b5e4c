// Glue of the IGEMM convolution kernel (f32_igemm_4x8): the indirection buffer, the work-unit plan, and
// the validated parameter block. The kernel checks nothing; everything it reads was checked here.
//
// The indirection buffer holds byte offsets relative to the input image's base (not addresses), so one
// buffer, built once at load, serves every slot (frame in flight) and every image of a batch; the
// parameter block (one per slot) holds the absolute bases.
import { FlowinferError } from '../errors.ts';
import {
  GEMM_NR,
  IGEMM_ACT, IGEMM_ALPHA, IGEMM_BATCH, IGEMM_C, IGEMM_C_IMAGE, IGEMM_CHUNK, IGEMM_IN, IGEMM_IN_IMAGE, IGEMM_IND, IGEMM_K,
  IGEMM_LDC, IGEMM_LDR, IGEMM_N, IGEMM_PARAMS_BYTES, IGEMM_PIXELS, IGEMM_R, IGEMM_TAPS, IGEMM_W, IGEMM_ZERO,
  RESERVED_BYTES, ZERO_BUFFER,
} from './abi.ts';
import { activationCode, type Activation } from './activation.ts';
import { packedConvFloats } from './conv-pack.ts';
import { paramBlock, regionsOverlap, type Region } from './eltwise-regions.ts';
import type { SharedMemory } from './wasm.ts';

/** Output pixels per IGEMM micro-tile (GEMM_MR rows). */
export const IGEMM_TILE_PIXELS = 4;
/** Floats of zeros at ZERO_BUFFER (abi.ts): a padding tap of up to this many channels can read there. */
export const ZERO_BUFFER_FLOATS = (RESERVED_BYTES - ZERO_BUFFER) / 4;

/** One sliding window along a dim: out[o] reads in[o * stride - padBegin + k * dilation] for k < kernel. */
export interface Window {
  readonly size: number;
  readonly out: number;
  readonly kernel: number;
  readonly stride: number;
  readonly dilation: number;
  readonly padBegin: number;
}

/**
 * Where each tap of a sliding window reads along one dim: index[k * out + o] is the input coordinate
 * that tap k of output o reads, or -1 for a zero-padding tap (ops/border.ts tapIndex, which also maps
 * the reflect / replicate / circular padding modes).
 */
export interface TapTable {
  readonly index: Int32Array;
  readonly kernel: number;
  readonly out: number;
}

/**
 * The indirection of a convolution over images `width` pixels wide (pixel stride `pixelStride` floats):
 * per tile of 4 output pixels, per tap (ky, kx), 4 byte offsets from the image base, or -1 where either
 * table says zero padding. ceil(OH * OW / 4) * KH * KW * 4 entries; the last tile repeats the last pixel.
 */
export function convIndirection(rows: TapTable, cols: TapTable, width: number, pixelStride: number): Int32Array {
  return tiledIndirection(rows.out * cols.out, cols.out, rows.kernel * cols.kernel, (oy, ox, tap) => {
    const ky = Math.floor(tap / cols.kernel);
    const y = rows.index[ky * rows.out + oy]!;
    const x = cols.index[(tap - ky * cols.kernel) * cols.out + ox]!;
    return y < 0 || x < 0 ? -1 : (y * width + x) * pixelStride * 4;
  });
}

/**
 * The indirection of the "row taps" form: the input is a dense padded copy (padded.size columns of
 * `channels` floats, every tap inside it) and tap ky of output pixel (oy, ox) is the run of KW * channels
 * contiguous floats starting at padded pixel (oy * sh + ky * dh, ox * sw). Needs horizontal dilation 1.
 */
export function rowTapIndirection(rows: Window, cols: Window, paddedCols: number, channels: number): Int32Array {
  return tiledIndirection(rows.out * cols.out, cols.out, rows.kernel, (oy, ox, ky) =>
    ((oy * rows.stride + ky * rows.dilation) * paddedCols + ox * cols.stride) * channels * 4);
}

/**
 * Entries for `pixels` output pixels, `width` to a row: per tile of 4 pixels, per tap, `entry(oy, ox, tap)`
 * for each pixel of the tile; the last tile repeats the last pixel.
 */
function tiledIndirection(pixels: number, width: number, taps: number, entry: (oy: number, ox: number, tap: number) => number): Int32Array {
  const tiles = Math.ceil(pixels / IGEMM_TILE_PIXELS);
  const entries = new Int32Array(tiles * taps * IGEMM_TILE_PIXELS);
  for (let t = 0; t < tiles; t++) {
    for (let i = 0; i < IGEMM_TILE_PIXELS; i++) {
      const p = Math.min(t * IGEMM_TILE_PIXELS + i, pixels - 1);
      const oy = Math.floor(p / width);
      const ox = p - oy * width;
      for (let tap = 0; tap < taps; tap++) entries[(t * taps + tap) * IGEMM_TILE_PIXELS + i] = entry(oy, ox, tap);
    }
  }
  return entries;
}

/** An IGEMM call: byte offsets are absolute, strides in floats. */
export interface IgemmCall {
  /** Input image 0, pixel 0, channel 0. */
  readonly input: number;
  /** Bytes from one input image to the next. */
  readonly inImage: number;
  /** Bytes of one input image that the indirection may point into (from `input`). */
  readonly inBytes: number;
  /** The indirection buffer (convIndirection or rowTapIndirection), 4-byte aligned, and its entries. */
  readonly ind: number;
  readonly entries: Int32Array;
  /** Packed weights (conv-pack.ts), 16-byte aligned. */
  readonly w: number;
  readonly c: number;
  readonly ldc: number;
  /**
   * Bytes from one output image to the next, at least pixels * ldc * 4 (the default, a dense output).
   * Larger for a transposed convolution's tap, which writes every s-th pixel of every s-th output row.
   */
  readonly cImage?: number;
  readonly pixels: number;
  readonly batch: number;
  readonly groups: number;
  /** Output channels per group. */
  readonly n: number;
  /** Input floats per group read at each tap. */
  readonly k: number;
  readonly taps: number;
  /** Residual laid out like C, or none. */
  readonly residual?: { readonly r: number; readonly ldr: number };
  /** At least k floats of zeros (default ZERO_BUFFER when k fits there). */
  readonly zero?: number;
  readonly activation?: Activation;
  readonly alpha?: number;
}

/** How the units of an IGEMM are cut: `chunk` panels per unit, `perTile` units per scheduled tile. */
export interface IgemmPlan {
  readonly chunk: number;
  readonly units: number;
  readonly perTile: number;
  readonly tiles: number;
}

// As for the GEMM (gemm.ts): a unit's weight chunk stays in half of the 1 MiB per-core L2, and with
// several threads there are TILES_PER_THREAD tiles per thread so that a worker that starts late still
// finds work (bench/kernels/tile-plans.ts measured 16 best for the GEMM).
const CHUNK_WEIGHT_BYTES = 512 * 1024;
const TILES_PER_THREAD = 16;
/** The task ring's limit on tiles per step (workers/protocol.ts MAX_TILES). */
const MAX_TILES = 0xffff;

/** Units and tiles of an IGEMM for `threads` workers. */
export function planIgemm(call: Pick<IgemmCall, 'pixels' | 'batch' | 'groups' | 'n' | 'k' | 'taps'>, threads = 1): IgemmPlan {
  const panels = Math.ceil(call.n / GEMM_NR);
  const panelBytes = (call.taps * call.k + 1) * GEMM_NR * 4;
  const outer = call.groups * call.batch * Math.ceil(call.pixels / IGEMM_TILE_PIXELS);
  const wanted = threads > 1 ? TILES_PER_THREAD * threads : 1;
  let chunk = Math.max(1, Math.min(panels, Math.floor(CHUNK_WEIGHT_BYTES / panelBytes)));
  // Few pixels (7x7 maps): split the panels too, so that there are still `wanted` units.
  chunk = Math.min(chunk, Math.ceil(panels / Math.ceil(wanted / outer)));
  const units = outer * Math.ceil(panels / chunk);
  const perTile = Math.max(Math.ceil(units / wanted), Math.ceil(units / MAX_TILES));
  return { chunk, units, perTile, tiles: Math.ceil(units / perTile) };
}

/** Throws unless the kernel can run `call` in a memory of `memoryBytes`. */
export function validateIgemm(call: IgemmCall, plan: IgemmPlan, memoryBytes: number): void {
  const { input, inImage, inBytes, ind, entries, w, c, ldc, pixels, batch, groups, n, k, taps } = call;
  const fail = (problem: string): never => {
    throw new FlowinferError(`IGEMM ${batch}x${pixels} pixels, groups=${groups} N=${n} K=${k} taps=${taps} (input=${input} ind=${ind} w=${w} c=${c} ldc=${ldc}): ${problem}`);
  };
  for (const [name, value] of Object.entries({ pixels, batch, groups, n, k, taps, ldc, chunk: plan.chunk })) {
    if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive integer`);
  }
  if (ldc < groups * n) fail('ldc must be >= groups * N');
  const cImage = outImageBytes(call);
  if (!Number.isInteger(cImage) || cImage % 4 !== 0 || cImage < pixels * ldc * 4) fail(`the output image stride ${cImage} must be a multiple of 4 bytes, at least pixels * ldc * 4`);
  if (call.residual && cImage !== pixels * ldc * 4) fail('a residual needs a dense output (no custom output image stride)');
  if (input % 4 !== 0 || c % 4 !== 0 || ind % 4 !== 0 || inImage % 4 !== 0) fail('input, c, the indirection and the image size must be 4-byte aligned');
  if (w % 16 !== 0) fail('packed weights must be 16-byte aligned');
  const tiles = Math.ceil(pixels / IGEMM_TILE_PIXELS);
  if (entries.length !== tiles * taps * IGEMM_TILE_PIXELS) fail(`the indirection holds ${entries.length} entries, expected ${tiles * taps * IGEMM_TILE_PIXELS}`);
  const zero = call.zero ?? ZERO_BUFFER;
  if (call.zero === undefined && k > ZERO_BUFFER_FLOATS && entries.includes(-1)) fail(`padding taps need ${k} zeros, more than the ${ZERO_BUFFER_FLOATS} at ZERO_BUFFER: pass a zero region`);
  const readEnd = groups * k * 4; // bytes read from a pixel, all groups
  for (const e of entries) {
    if (e === -1) continue;
    if (e < 0 || e % 4 !== 0 || e + readEnd > inBytes) fail(`indirection entry ${e} is outside the image (${inBytes} bytes, reads ${readEnd})`);
  }
  const units = groups * batch * tiles * Math.ceil(Math.ceil(n / GEMM_NR) / plan.chunk);
  if (plan.units !== units) fail(`the plan has ${plan.units} units, expected ${units}`);
  const inEnd = input + (batch - 1) * inImage + inBytes;
  const wEnd = w + packedConvFloats(groups * n, groups, k, taps) * 4;
  const cEnd = c + (batch - 1) * cImage + ((pixels - 1) * ldc + groups * n) * 4;
  const starts = [input, ind, w, c, call.zero ?? RESERVED_BYTES];
  if (Math.min(...starts) < RESERVED_BYTES) fail(`operands must lie in the arena (at or above ${RESERVED_BYTES})`);
  if (Math.max(inEnd, ind + entries.length * 4, wEnd, cEnd) > memoryBytes) fail(`operands end past the memory (${memoryBytes} bytes)`);
  const overlap = (a: number, aEnd: number, b: number, bEnd: number) => a < bEnd && b < aEnd;
  if (overlap(c, cEnd, w, wEnd) || overlap(c, cEnd, ind, ind + entries.length * 4)) fail('C overlaps the weights or the indirection');
  if (overlap(c, cEnd, input, inEnd) && inputSharesC(call, inEnd, cEnd)) fail('C overlaps the input');
  if (call.residual) {
    const { r, ldr } = call.residual;
    if (!Number.isInteger(ldr) || ldr < groups * n) fail(`residual pixel stride ${ldr} must be >= groups * N`);
    if (r % 4 !== 0 || r < RESERVED_BYTES) fail(`residual at ${r} must be 4-byte aligned and in the arena`);
    const rEnd = r + ((batch * pixels - 1) * ldr + groups * n) * 4;
    if (rEnd > memoryBytes) fail('the residual ends past the memory');
    if (overlap(r, rEnd, c, cEnd)) fail('the residual overlaps C');
  }
  if (zero !== ZERO_BUFFER && zero + k * 4 > memoryBytes) fail('the zero region ends past the memory');
  if (call.activation === 'leaky_relu' && !Number.isFinite(call.alpha ?? 0)) fail('alpha must be finite');
}

/** Validates `call` and writes its parameter block at `at` (16-byte aligned, IGEMM_PARAMS_BYTES). */
export function writeIgemmParams(memory: SharedMemory, at: number, call: IgemmCall, plan: IgemmPlan): void {
  const buffer = memory.buffer;
  validateIgemm(call, plan, buffer.byteLength);
  const { u32, f32 } = paramBlock(memory, at, IGEMM_PARAMS_BYTES, 'IGEMM');
  u32.fill(0);
  u32[IGEMM_IN / 4] = call.input;
  u32[IGEMM_IND / 4] = call.ind;
  u32[IGEMM_W / 4] = call.w;
  u32[IGEMM_C / 4] = call.c;
  u32[IGEMM_LDC / 4] = call.ldc;
  u32[IGEMM_PIXELS / 4] = call.pixels;
  u32[IGEMM_N / 4] = call.n;
  u32[IGEMM_K / 4] = call.k;
  u32[IGEMM_ACT / 4] = activationCode(call.activation ?? 'none');
  f32[IGEMM_ALPHA / 4] = call.alpha ?? 0;
  u32[IGEMM_TAPS / 4] = call.taps;
  u32[IGEMM_CHUNK / 4] = plan.chunk;
  u32[IGEMM_R / 4] = call.residual?.r ?? 0;
  u32[IGEMM_LDR / 4] = call.residual?.ldr ?? 0;
  u32[IGEMM_ZERO / 4] = call.zero ?? ZERO_BUFFER;
  u32[IGEMM_BATCH / 4] = call.batch;
  u32[IGEMM_IN_IMAGE / 4] = call.inImage;
  u32[IGEMM_C_IMAGE / 4] = outImageBytes(call);
}

const outImageBytes = (call: IgemmCall) => call.cImage ?? call.pixels * call.ldc * 4;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Whether the input and C share a float, where their byte spans overlap. They may be channel slices of one
 * concatenation buffer (a convolution reading one branch of a `torch.cat` and writing another): when every
 * pixel the kernel reads or writes starts on a multiple of one pixel size (the gcd of the strides and
 * offsets), the two are compared column-wise over whole rows of that size (a superset of C's pixels when
 * the output image stride skips some).
 */
function inputSharesC(call: IgemmCall, inEnd: number, cEnd: number): boolean {
  const { input, inImage, entries, c, ldc, groups, n, k } = call;
  let unit = gcd(gcd(ldc * 4, outImageBytes(call)), inImage);
  for (const e of entries) if (e > 0) unit = gcd(unit, e);
  if (groups * n * 4 > unit || groups * k * 4 > unit) return true;
  const out: Region = { at: c, rows: Math.ceil((cEnd - c) / unit), cols: groups * n, stride: unit / 4 };
  const read: Region = { at: input, rows: Math.ceil((inEnd - input) / unit), cols: groups * k, stride: unit / 4 };
  return regionsOverlap(out, read);
}
