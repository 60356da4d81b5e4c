// nn.ConvTranspose2d on the fast path: two lowerings onto the IGEMM kernel (f32_igemm_4x8).
//
//   path    when (transposePaths)                               steps
//   taps    kernel = stride, no padding, dilation 1, no         one IGEMM per tap (ky, kx): output pixel
//           output_padding (the non-overlapping "upsampling"    (iy*s + ky, ix*s + kx) = bias + x[iy, ix] . W[:, :, ky, kx];
//           form of U-Nets and detection heads)                 each input row is one IGEMM image, written to every
//                                                               s-th pixel of every s-th output row (IGEMM_C_IMAGE)
//   igemm   everything else (padding, output_padding,           one IGEMM over the output pixels: tap (ky, kx) of
//           dilation, groups, any kernel and stride)            output (oy, ox) reads input ((oy + p - ky*d) / s, ...)
//                                                               where that division is exact and inside, else zeros
//
// On the general path the kernel skips a tap that reads zeros for all 4 pixels of a tile, which takes out
// the kernel rows no input row lands on (a tile mostly lies in one output row but spans the column phases),
// but it still multiplies the zero columns: about (s_w - 1) / s_w of what is left. The common kernel = stride
// form has its own path: its taps write disjoint pixels, covering the output once with no zeros.
// Weights come as (Cin, Cout/groups, KH, KW) and are repacked to the convolution's (Cout, Cin/groups, KH,
// KW) without flipping: the indirection already maps each tap to the input pixel it multiplies.

import type { Node } from '../../graph/graph.ts';
import type { BuildContext, Lowered, PlannedStep } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { FlowinferError } from '../../errors.ts';
import { convIndirection, type TapTable } from '../../kernels/conv.ts';
import { parseConvParams, type ConvParams } from '../conv-params.ts';
import { ParamReader } from '../params.ts';
import { buildIndirectConv, dims, igemmStep, packIgemm, storeI32, type ConvLayer, type ConvViews } from './conv-build.ts';
import { epilogueOf } from './epilogue.ts';

export type TransposePath = 'taps' | 'igemm';

/** The paths that can run a transposed convolution with these params, by preference. */
export function transposePaths(c: ConvParams): TransposePath[] {
  const upsampling = c.kernel[0] === c.stride[0] && c.kernel[1] === c.stride[1] &&
    c.padBegin.every((p) => p === 0) && c.dilation.every((d) => d === 1) && c.outputPadding.every((p) => p === 0);
  return upsampling ? ['taps', 'igemm'] : ['igemm'];
}

export interface TransposeLoweringOptions {
  /** Force a path (tests and benchmarks); it must be one of transposePaths(params). */
  readonly path?: TransposePath;
}

/** The lowering of nn.ConvTranspose2d (registered in index.ts); undefined for rank 3 or an activation no epilogue has. */
export function lowerConvTranspose(node: Node, _op?: unknown, options: TransposeLoweringOptions = {}): Lowered | undefined {
  const c = parseConvParams(node, true);
  const x = node.inputs[0]!;
  const epilogue = epilogueOf(node);
  if (!epilogue || x.shape?.length !== 4) return undefined;
  const path = options.path ?? transposePaths(c)[0]!;
  if (!transposePaths(c).includes(path)) {
    throw new FlowinferError(`${label(node)}: the ${path} path cannot run this transposed convolution (paths: ${transposePaths(c).join(', ')})`);
  }
  const p = new ParamReader(node);
  const layer = (): ConvLayer => ({
    params: c,
    weights: convLayout(c, p.weightF32('weight')),
    bias: c.hasBias ? p.weightF32('bias') : undefined,
    epilogue,
    label: label(node),
  });
  const views = (ctx: BuildContext): ConvViews => ({ input: ctx.view(x), output: ctx.view(node.outputs[0]!), residual: undefined });
  return {
    stridedViews: true,
    build: (ctx) => (path === 'taps' ? buildTapConvs(layer(), views(ctx), ctx) : [buildIndirectConv(layer(), views(ctx), ctx, transposeIndirection(c, views(ctx)))]),
  };
}

/** (Cin, N, KH, KW) per group -> (Cout, K, KH, KW): the layout packConvWeights takes. */
export function convLayout(c: ConvParams, weights: Float32Array): Float32Array {
  const taps = c.kernel[0] * c.kernel[1];
  const k = c.inChannels / c.groups;
  const n = c.outChannels / c.groups;
  const out = new Float32Array(weights.length);
  for (let g = 0; g < c.groups; g++) {
    for (let o = 0; o < n; o++) {
      for (let ci = 0; ci < k; ci++) {
        const src = ((g * k + ci) * n + o) * taps;
        out.set(weights.subarray(src, src + taps), ((g * n + o) * k + ci) * taps);
      }
    }
  }
  return out;
}

/** Along one dim, the input coordinate tap k of output o reads ((o + pad - k*d) / s when exact and inside), or -1. */
function transposeTaps(size: number, out: number, kernel: number, stride: number, dilation: number, pad: number): TapTable {
  const index = new Int32Array(kernel * out);
  for (let k = 0; k < kernel; k++) {
    for (let o = 0; o < out; o++) {
      const t = o + pad - k * dilation;
      index[k * out + o] = t >= 0 && t % stride === 0 && t / stride < size ? t / stride : -1;
    }
  }
  return { index, kernel, out };
}

function transposeIndirection(c: ConvParams, v: ConvViews): Int32Array {
  const [, , h, w] = dims(v.input);
  const [, , oh, ow] = dims(v.output);
  const rows = transposeTaps(h, oh, c.kernel[0], c.stride[0], c.dilation[0], c.padBegin[0]);
  const cols = transposeTaps(w, ow, c.kernel[1], c.stride[1], c.dilation[1], c.padBegin[1]);
  return convIndirection(rows, cols, w, v.input.pixelStride);
}

/**
 * The taps path: per tap (ky, kx), a 1x1 IGEMM over the input whose images are the input rows (batch
 * N * H, W pixels each); image b = (n, iy) writes output row iy*s + ky from pixel kx on, every s-th pixel.
 * With groups 1 and a dense output (pixel stride Cout) the taps of one kernel row are one IGEMM: pixels
 * kx = 0 .. s-1 of a row are contiguous there, so it writes s * Cout channels per input pixel (fewer
 * steps, and wider panels when Cout is small: PP-OCR's 24 -> 1 head fills 2 of 8 lanes instead of 1).
 */
function buildTapConvs(l: ConvLayer, v: ConvViews, ctx: BuildContext): PlannedStep[] {
  const c = l.params;
  const [n, cin, h, w] = dims(v.input);
  const [, , , ow] = dims(v.output);
  const [kh, kw] = c.kernel;
  const taps = kh * kw;
  const k = cin / c.groups;
  const cout = c.outChannels;
  const outPixel = v.output.pixelStride * 4;
  const width = c.groups === 1 && v.output.pixelStride === cout ? kw : 1; // taps along x per IGEMM
  // One row of input pixels: the indirection all the taps share.
  const entries = convIndirection({ index: new Int32Array(1), kernel: 1, out: 1 }, { index: Int32Array.from({ length: w }, (_, i) => i), kernel: 1, out: w }, w, v.input.pixelStride);
  const ind = storeI32(ctx, entries);
  const steps: PlannedStep[] = [];
  for (let ky = 0; ky < kh; ky++) {
    for (let x0 = 0; x0 < kw; x0 += width) {
      // Output column r (of width * Cout) is tap kx = x0 + r / Cout, channel r % Cout.
      const weights = new Float32Array(width * cout * k);
      const bias = l.bias && Float32Array.from({ length: width * cout }, (_, r) => l.bias![r % cout]!);
      for (let r = 0; r < width * cout; r++) {
        const tap = ky * kw + x0 + Math.floor(r / cout);
        for (let ci = 0; ci < k; ci++) weights[r * k + ci] = l.weights[((r % cout) * k + ci) * taps + tap]!;
      }
      const layer: ConvLayer = { ...l, params: { ...c, kernel: [1, 1], outChannels: width * cout }, weights, bias };
      const shape = {
        inImage: w * v.input.pixelStride * 4,
        inBytes: ((w - 1) * v.input.pixelStride + cin) * 4,
        ind, entries,
        w: packIgemm(ctx, layer),
        ldc: c.stride[1] * v.output.pixelStride,
        cImage: c.stride[0] * ow * outPixel,
        pixels: w, batch: n * h, groups: c.groups, n: (width * cout) / c.groups, k, taps: 1,
        ...l.epilogue,
      };
      const first = (ky * ow + x0) * outPixel;
      steps.push(igemmStep(ctx, l, shape, (base) => ({ input: base + v.input.offset, c: base + v.output.offset + first, residual: undefined })));
    }
  }
  return steps;
}
