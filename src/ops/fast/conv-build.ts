// The build phase of the convolution lowerings (conv.ts): weights packed into the arena, indirection
// buffers and padding tables stored once, one parameter block per slot, and the steps.

import type { BuildContext, PlannedStep } from '../../runtime/fast/lowering.ts';
import type { TensorView } from '../../runtime/fast/views.ts';
import type { Shape } from '../../tensor/shape.ts';
import { DW_PARAMS_BYTES, CPAD_PARAMS_BYTES, IGEMM_PARAMS_BYTES } from '../../kernels/abi.ts';
import { convIndirection, planIgemm, rowTapIndirection, writeIgemmParams, ZERO_BUFFER_FLOATS, type IgemmCall, type TapTable, type Window } from '../../kernels/conv.ts';
import { planDw, writeDwParams } from '../../kernels/conv-dw.ts';
import { packConvWeights, packDwWeights, packedConvFloats, packedDwFloats } from '../../kernels/conv-pack.ts';
import { writePadParams } from '../../kernels/conv-pad.ts';
import { borderIndex, tapIndex, type BorderMode } from '../border.ts';
import type { ConvParams } from '../conv-params.ts';
import type { Epilogue } from './epilogue.ts';

export interface ConvLayer {
  readonly params: ConvParams;
  /** (Cout, Cin / groups, KH, KW) */
  readonly weights: Float32Array;
  readonly bias: Float32Array | undefined;
  readonly epilogue: Epilogue;
  /** Names the node in steps and errors. */
  readonly label: string;
}

export interface ConvViews {
  readonly input: TensorView;
  readonly output: TensorView;
  readonly residual: TensorView | undefined;
}

export const dims = (v: TensorView) => v.shape as readonly [number, number, number, number];
const borderMode = (c: ConvParams): BorderMode => (c.paddingMode === 'zeros' ? 'constant' : c.paddingMode);

function windows(c: ConvParams, input: TensorView, output: TensorView): [Window, Window] {
  const [, , h, w] = dims(input);
  const [, , oh, ow] = dims(output);
  return [
    { size: h, out: oh, kernel: c.kernel[0], stride: c.stride[0], dilation: c.dilation[0], padBegin: c.padBegin[0] },
    { size: w, out: ow, kernel: c.kernel[1], stride: c.stride[1], dilation: c.dilation[1], padBegin: c.padBegin[1] },
  ];
}

/** Where tap k of output o reads along a window's dim, -1 for zeros, for the convolution's padding mode. */
function tapTable(w: Window, mode: BorderMode): TapTable {
  return { index: tapIndex(w.size, w.out, w.kernel, w.stride, w.dilation, w.padBegin, mode), kernel: w.kernel, out: w.out };
}

/** The source index of each padded coordinate along a dim of `size` (-1: zero). */
function padTable(size: number, before: number, after: number, mode: BorderMode): Int32Array {
  return Int32Array.from({ length: before + size + after }, (_, i) => borderIndex(i - before, size, mode));
}

export function storeI32(ctx: BuildContext, values: Int32Array): number {
  const at = ctx.arena.alloc(values.length * 4, 64);
  ctx.arena.i32(at, values.length).set(values);
  return at;
}

export function packIgemm(ctx: BuildContext, l: ConvLayer): number {
  const c = l.params;
  const k = c.inChannels / c.groups;
  const taps = c.kernel[0] * c.kernel[1];
  const floats = packedConvFloats(c.outChannels, c.groups, k, taps);
  const w = ctx.arena.alloc(floats * 4, 64);
  packConvWeights(ctx.arena.f32(w, floats), l.weights, l.bias, c.outChannels, c.groups, k, taps);
  return w;
}

/** One IGEMM step over `call` (minus the per-slot addresses, which `slotCall` supplies). */
export function igemmStep(ctx: BuildContext, l: ConvLayer, shape: Omit<IgemmCall, 'input' | 'c' | 'residual'>, slotCall: (base: number) => Pick<IgemmCall, 'input' | 'c' | 'residual'>): PlannedStep {
  const plan = planIgemm(shape, ctx.threads);
  const params = ctx.slotBases.map((base) => {
    const at = ctx.arena.alloc(IGEMM_PARAMS_BYTES, 64);
    writeIgemmParams(ctx.arena.memory, at, { ...shape, ...slotCall(base) }, plan);
    return at;
  });
  return { step: { kind: 'range', label: l.label, fn: 'f32_igemm_4x8', params, units: plan.units, perTile: plan.perTile }, tiles: plan.tiles };
}

const residualOf = (v: TensorView | undefined, base: number) => (v ? { r: base + v.offset, ldr: v.pixelStride } : undefined);

/** The general path: an indirect GEMM over the input as it is. */
export function buildIgemmConv(l: ConvLayer, v: ConvViews, ctx: BuildContext): PlannedStep {
  const [, , , w] = dims(v.input);
  const [rows, cols] = windows(l.params, v.input, v.output);
  const mode = borderMode(l.params);
  return buildIndirectConv(l, v, ctx, convIndirection(tapTable(rows, mode), tapTable(cols, mode), w, v.input.pixelStride));
}

/**
 * An IGEMM over every output pixel and tap (KH x KW) with the given indirection (convIndirection form):
 * the general convolution, and the general transposed convolution (whose taps read zeros wherever no
 * input pixel lands on them).
 */
export function buildIndirectConv(l: ConvLayer, v: ConvViews, ctx: BuildContext, entries: Int32Array): PlannedStep {
  const c = l.params;
  const [n, cin, h, w] = dims(v.input);
  const [, , oh, ow] = dims(v.output);
  const k = cin / c.groups;
  // Padding taps read k zeros; past the reserved zero buffer they get a region of their own.
  const zero = k > ZERO_BUFFER_FLOATS && entries.includes(-1) ? ctx.arena.alloc(k * 4, 64) : undefined;
  if (zero !== undefined) ctx.arena.f32(zero, k).fill(0);
  const shape = {
    inImage: h * w * v.input.pixelStride * 4,
    inBytes: ((h * w - 1) * v.input.pixelStride + cin) * 4,
    ind: storeI32(ctx, entries), entries,
    w: packIgemm(ctx, l),
    ldc: v.output.pixelStride,
    pixels: oh * ow, batch: n, groups: c.groups, n: c.outChannels / c.groups, k, taps: c.kernel[0] * c.kernel[1],
    zero, ...l.epilogue,
  };
  return igemmStep(ctx, l, shape, (base) => ({ input: base + v.input.offset, c: base + v.output.offset, residual: residualOf(v.residual, base) }));
}

/** Rows and columns of the padded copy of the row-taps path. */
function paddedSize(c: ConvParams, h: number, w: number): [number, number] {
  return [c.padBegin[0] + h + c.padEnd[0], c.padBegin[1] + w + c.padEnd[1]];
}

export function rowTapScratchBytes(c: ConvParams, input: Shape): number {
  const [n, cin, h, w] = input as [number, number, number, number];
  const [hp, wp] = paddedSize(c, h, w);
  return n * hp * wp * cin * 4;
}

/**
 * The small-channel path: copy the input into a dense padded buffer (scratch), then run the IGEMM with
 * one tap per kernel row reading KW * Cin contiguous floats. The weights pack exactly as for the IGEMM:
 * tap-major (ky, kx) with Cin inner is row-major (ky) with (kx, Cin) inner.
 */
export function buildRowTapConv(l: ConvLayer, v: ConvViews, scratch: TensorView, ctx: BuildContext): PlannedStep[] {
  const c = l.params;
  const [n, cin, h, w] = dims(v.input);
  const [, , oh, ow] = dims(v.output);
  const [hp, wp] = paddedSize(c, h, w);
  const mode = borderMode(c);
  const rowTable = padTable(h, c.padBegin[0], c.padEnd[0], mode);
  const colTable = padTable(w, c.padBegin[1], c.padEnd[1], mode);
  const rowsAt = storeI32(ctx, rowTable);
  const colsAt = storeI32(ctx, colTable);
  const [rows, cols] = windows(c, v.input, v.output);
  const padUnits = n * hp;
  const padPerTile = Math.max(1, Math.ceil(padUnits / (8 * ctx.threads)));
  const padParams = ctx.slotBases.map((base) => {
    const at = ctx.arena.alloc(CPAD_PARAMS_BYTES, 64);
    writePadParams(ctx.arena.memory, at, {
      input: base + v.input.offset, inPixelStride: v.input.pixelStride, batch: n, height: h, width: w, channels: cin,
      rows: rowsAt, rowTable, cols: colsAt, colTable, out: base + scratch.offset,
    });
    return at;
  });
  const pad: PlannedStep = {
    step: { kind: 'range', label: `${l.label} (padded copy)`, fn: 'f32_conv_pad', params: padParams, units: padUnits, perTile: padPerTile },
    tiles: Math.ceil(padUnits / padPerTile),
  };
  const entries = rowTapIndirection(rows, cols, wp, cin);
  const shape = {
    inImage: hp * wp * cin * 4,
    inBytes: hp * wp * cin * 4,
    ind: storeI32(ctx, entries), entries,
    w: packIgemm(ctx, l),
    ldc: v.output.pixelStride,
    pixels: oh * ow, batch: n, groups: 1, n: c.outChannels, k: c.kernel[1] * cin, taps: c.kernel[0],
    ...l.epilogue,
  };
  const gemm = igemmStep(ctx, l, shape, (base) => ({ input: base + scratch.offset, c: base + v.output.offset, residual: residualOf(v.residual, base) }));
  return [pad, gemm];
}

/** Depthwise, channel multiplier 1, zero padding: the direct NHWC kernel. */
export function buildDwConv(l: ConvLayer, v: ConvViews, ctx: BuildContext): PlannedStep {
  const c = l.params;
  const [n, ch, h, w] = dims(v.input);
  const [, , oh, ow] = dims(v.output);
  const taps = c.kernel[0] * c.kernel[1];
  const floats = packedDwFloats(ch, taps);
  const weights = ctx.arena.alloc(floats * 4, 64);
  packDwWeights(ctx.arena.f32(weights, floats), l.weights, l.bias, ch, taps);
  const plan = planDw({ batch: n, outHeight: oh, channels: ch }, ctx.threads);
  const params = ctx.slotBases.map((base) => {
    const at = ctx.arena.alloc(DW_PARAMS_BYTES, 64);
    writeDwParams(ctx.arena.memory, at, {
      input: base + v.input.offset, inPixelStride: v.input.pixelStride, w: weights, c: base + v.output.offset, ldc: v.output.pixelStride,
      batch: n, channels: ch, height: h, width: w, outHeight: oh, outWidth: ow,
      kernel: c.kernel, stride: c.stride, dilation: c.dilation, padBegin: c.padBegin,
      residual: residualOf(v.residual, base), ...l.epilogue,
    }, plan);
    return at;
  });
  return { step: { kind: 'range', label: l.label, fn: 'f32_dwconv', params, units: plan.units, perTile: plan.perTile }, tiles: plan.tiles };
}
