// Glue of the depthwise convolution kernel (f32_dwconv): the work-unit plan and the validated parameter
// block. Channel multiplier 1 (groups = Cin = Cout), zero padding; other depthwise forms run as IGEMM.
import { FlowinferError } from '../errors.ts';
import {
  DW_ACT, DW_ALPHA, DW_BATCH, DW_C, DW_CH, DW_CHUNK, DW_DH, DW_DW, DW_H, DW_IN, DW_IN_PS, DW_KH, DW_KW, DW_LDC,
  DW_LDR, DW_OH, DW_OW, DW_PARAMS_BYTES, DW_PL, DW_PT, DW_R, DW_SH, DW_SW, DW_W, DW_WIDTH, RESERVED_BYTES,
} from './abi.ts';
import { activationCode, type Activation } from './activation.ts';
import { packedDwFloats } from './conv-pack.ts';
import { paramBlock, regionsOverlap, type Region } from './eltwise-regions.ts';
import type { SharedMemory } from './wasm.ts';

export interface DwCall {
  /** Input image 0, pixel (0, 0), channel 0 (absolute byte offset); pixel stride in floats. */
  readonly input: number;
  readonly inPixelStride: number;
  /** Packed weights (conv-pack.ts packDwWeights), 16-byte aligned. */
  readonly w: number;
  readonly c: number;
  readonly ldc: number;
  readonly batch: number;
  readonly channels: number;
  readonly height: number;
  readonly width: number;
  readonly outHeight: number;
  readonly outWidth: number;
  readonly kernel: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly dilation: readonly [number, number];
  /** Padding before (top, left); the padding after follows from the output size. */
  readonly padBegin: readonly [number, number];
  readonly residual?: { readonly r: number; readonly ldr: number };
  readonly activation?: Activation;
  readonly alpha?: number;
}

/** `chunk` channels per unit (a multiple of 8), units = chunks x output rows, `perTile` units per tile. */
export interface DwPlan {
  readonly chunk: number;
  readonly units: number;
  readonly perTile: number;
  readonly tiles: number;
}

// Tiles per thread as for the GEMM (gemm.ts): a late worker must still find work.
const TILES_PER_THREAD = 16;
const MAX_TILES = 0xffff;

export function planDw(call: Pick<DwCall, 'batch' | 'outHeight' | 'channels'>, threads = 1): DwPlan {
  const rows = call.batch * call.outHeight;
  const blocks = Math.ceil(call.channels / 8);
  const wanted = threads > 1 ? TILES_PER_THREAD * threads : 1;
  // Few rows (7x7 maps): cut the channels too, so each thread still gets several units.
  const chunks = Math.min(blocks, Math.ceil(wanted / rows));
  const chunk = Math.ceil(blocks / chunks) * 8;
  const units = Math.ceil(blocks * 8 / chunk) * rows;
  const perTile = Math.max(Math.ceil(units / wanted), Math.ceil(units / MAX_TILES));
  return { chunk, units, perTile, tiles: Math.ceil(units / perTile) };
}

export function validateDw(call: DwCall, plan: DwPlan, memoryBytes: number): void {
  const { input, inPixelStride, w, c, ldc, batch, channels, height, width, outHeight, outWidth } = call;
  const [kh, kw] = call.kernel;
  const fail = (problem: string): never => {
    throw new FlowinferError(
      `depthwise conv ${batch}x${channels}x${height}x${width} -> ${outHeight}x${outWidth}, kernel (${kh},${kw}) stride (${call.stride.join(',')}) ` +
        `dilation (${call.dilation.join(',')}) padding (${call.padBegin.join(',')}) (input=${input} w=${w} c=${c}): ${problem}`,
    );
  };
  const ints = { inPixelStride, ldc, batch, channels, height, width, outHeight, outWidth, kh, kw, sh: call.stride[0], sw: call.stride[1], dh: call.dilation[0], dw: call.dilation[1] };
  for (const [name, value] of Object.entries(ints)) if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive integer`);
  if (!call.padBegin.every((p) => Number.isInteger(p) && p >= 0)) fail('padding must be non-negative integers');
  if (inPixelStride < channels || ldc < channels) fail('pixel strides must be >= channels');
  if (!(Number.isInteger(plan.chunk) && plan.chunk >= 8 && plan.chunk % 8 === 0)) fail(`chunk ${plan.chunk} must be a positive multiple of 8`);
  if (plan.units !== Math.ceil(Math.ceil(channels / 8) * 8 / plan.chunk) * batch * outHeight) fail(`the plan has ${plan.units} units`);
  if (input % 4 !== 0 || c % 4 !== 0) fail('input and c must be 4-byte aligned');
  if (w % 16 !== 0) fail('packed weights must be 16-byte aligned');
  // Every output pixel must read at least... nothing: taps outside the image are skipped, so any
  // geometry whose output fits PyTorch's formula is fine; the row and column bounds are what matter.
  const inEnd = input + ((batch * height * width - 1) * inPixelStride + channels) * 4;
  const cEnd = c + ((batch * outHeight * outWidth - 1) * ldc + channels) * 4;
  const wEnd = w + packedDwFloats(channels, kh * kw) * 4;
  if (Math.min(input, w, c) < RESERVED_BYTES) fail(`operands must lie in the arena (at or above ${RESERVED_BYTES})`);
  if (Math.max(inEnd, cEnd, wEnd) > memoryBytes) fail(`operands end past the memory (${memoryBytes} bytes)`);
  const overlap = (a: number, aEnd: number, b: number, bEnd: number) => a < bEnd && b < aEnd;
  if (overlap(c, cEnd, w, wEnd)) fail('C overlaps the weights');
  // Channel slices of one concatenation buffer may interleave without sharing a float.
  const read: Region = { at: input, rows: batch * height * width, cols: channels, stride: inPixelStride };
  if (regionsOverlap({ at: c, rows: batch * outHeight * outWidth, cols: channels, stride: ldc }, read)) fail('C overlaps the input');
  if (call.residual) {
    const { r, ldr } = call.residual;
    if (!Number.isInteger(ldr) || ldr < channels) fail(`residual pixel stride ${ldr} must be >= channels`);
    if (r % 4 !== 0 || r < RESERVED_BYTES) fail(`residual at ${r} must be 4-byte aligned and in the arena`);
    const rEnd = r + ((batch * outHeight * outWidth - 1) * ldr + channels) * 4;
    if (rEnd > memoryBytes) fail('the residual ends past the memory');
    if (overlap(r, rEnd, c, cEnd)) fail('the residual overlaps C');
  }
  if (call.activation === 'leaky_relu' && !Number.isFinite(call.alpha ?? 0)) fail('alpha must be finite');
}

export function writeDwParams(memory: SharedMemory, at: number, call: DwCall, plan: DwPlan): void {
  const buffer = memory.buffer;
  validateDw(call, plan, buffer.byteLength);
  const { u32, f32 } = paramBlock(memory, at, DW_PARAMS_BYTES, 'depthwise');
  u32.fill(0);
  const set = (field: number, value: number) => (u32[field / 4] = value);
  set(DW_IN, call.input);
  set(DW_IN_PS, call.inPixelStride);
  set(DW_W, call.w);
  set(DW_C, call.c);
  set(DW_LDC, call.ldc);
  set(DW_H, call.height);
  set(DW_WIDTH, call.width);
  set(DW_OH, call.outHeight);
  set(DW_OW, call.outWidth);
  set(DW_CH, call.channels);
  set(DW_ACT, activationCode(call.activation ?? 'none'));
  f32[DW_ALPHA / 4] = call.alpha ?? 0;
  set(DW_R, call.residual?.r ?? 0);
  set(DW_LDR, call.residual?.ldr ?? 0);
  set(DW_KH, call.kernel[0]);
  set(DW_KW, call.kernel[1]);
  set(DW_SH, call.stride[0]);
  set(DW_SW, call.stride[1]);
  set(DW_DH, call.dilation[0]);
  set(DW_DW, call.dilation[1]);
  set(DW_PT, call.padBegin[0]);
  set(DW_PL, call.padBegin[1]);
  set(DW_CHUNK, plan.chunk);
  set(DW_BATCH, call.batch);
}
