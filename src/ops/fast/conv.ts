// nn.Conv2d on the fast path: every convolution of the zoo's models lowers to one of four kernels.
//
//   path      when (choosePath)                                   steps
//   gemm      1x1, stride 1, no padding, groups 1                  one GEMM over the NHWC pixels (gemm.ts)
//   dw        depthwise (groups = Cin = Cout), zero padding         f32_dwconv over output rows
//   rowtaps   groups 1, Cin <= ROW_TAP_CHANNELS, horizontal         f32_conv_pad into scratch, then an
//             dilation 1 (the RGB stems: 7x7 s2, 6x6 s2, 3x3 s2)    IGEMM whose taps are kernel rows
//   igemm     everything else: any kernel, stride, dilation,       f32_igemm_4x8 over 4-pixel tiles x
//             padding (all four modes), groups                      channel panels
//
// A residual operand (`flowinfer.residual=True`, the node's second input, set by the residual-fusion
// pass) rides on every path as an epilogue: out = act(conv(x) + bias + residual).
// Weights, indirection buffers and tables are built once at load, in the arena; parameter blocks are per
// slot (absolute addresses), everything else is shared by the slots.

import type { Node } from '../../graph/graph.ts';
import type { Lowered, PlannedStep, BuildContext } from '../../runtime/fast/lowering.ts';
import type { TensorView } from '../../runtime/fast/views.ts';
import { FlowinferError } from '../../errors.ts';
import { parseConvParams, type ConvParams } from '../conv-params.ts';
import { ParamReader } from '../params.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { buildGemm } from './gemm.ts';
import { epilogueOf } from './epilogue.ts';
import { buildDwConv, buildIgemmConv, buildRowTapConv, rowTapScratchBytes, type ConvLayer } from './conv-build.ts';

export type ConvPath = 'gemm' | 'dw' | 'rowtaps' | 'igemm';

/**
 * Input channels up to which a groups-1 convolution runs as row taps: with K = Cin floats per tap the
 * IGEMM spends its time on the per-tap pointer setup, with K = KW * Cin it runs like a GEMM
 * (bench/kernels/conv.ts, the stems of ResNet-18 / MobileNetV2).
 */
export const ROW_TAP_CHANNELS = 4;

/** The paths that can run a convolution with these params, by preference (see choosePath). */
export function convPaths(c: ConvParams): ConvPath[] {
  const paths: ConvPath[] = [];
  const pointwise = c.kernel[0] === 1 && c.kernel[1] === 1 && c.stride[0] === 1 && c.stride[1] === 1 &&
    c.padBegin.every((p) => p === 0) && c.padEnd.every((p) => p === 0) && c.groups === 1;
  if (pointwise) paths.push('gemm');
  if (c.groups === c.inChannels && c.groups === c.outChannels && c.paddingMode === 'zeros') paths.push('dw');
  if (c.groups === 1 && c.dilation[1] === 1) paths.push('rowtaps');
  paths.push('igemm');
  return paths;
}

/** The first of convPaths, except row taps past ROW_TAP_CHANNELS input channels (the IGEMM is faster there). */
export function choosePath(c: ConvParams): ConvPath {
  const paths = convPaths(c);
  if (paths[0] === 'rowtaps' && c.inChannels > ROW_TAP_CHANNELS) return 'igemm';
  return paths[0]!;
}

export interface ConvLoweringOptions {
  /** Force a path (tests and benchmarks); it must be one of convPaths(params). */
  readonly path?: ConvPath;
}

/** The lowering of nn.Conv2d (registered in index.ts); undefined when no kernel applies (rank 3, unknown activation). */
export function lowerConv(node: Node, _op?: unknown, options: ConvLoweringOptions = {}): Lowered | undefined {
  const c = parseConvParams(node, false);
  const x = node.inputs[0]!;
  const residual = c.residual ? node.inputs[1] : undefined;
  const epilogue = epilogueOf(node);
  if (!epilogue || x.shape?.length !== 4 || (c.residual && residual?.shape?.length !== 4)) return undefined;
  const path = options.path ?? choosePath(c);
  if (!convPaths(c).includes(path)) {
    throw new FlowinferError(`${label(node)}: the ${path} path cannot run this convolution (paths: ${convPaths(c).join(', ')})`);
  }
  const p = new ParamReader(node);
  const layer = (): ConvLayer => ({
    params: c,
    weights: p.weightF32('weight'),
    bias: c.hasBias ? p.weightF32('bias') : undefined,
    epilogue,
    label: label(node),
  });
  const views = (ctx: BuildContext) => ({
    input: ctx.view(x),
    output: ctx.view(node.outputs[0]!),
    residual: residual && ctx.view(residual),
  });
  switch (path) {
    case 'gemm':
      return {
        stridedViews: true,
        build: (ctx) => {
          const v = views(ctx);
          return [gemmStep(node, layer(), v.input, v.output, ctx, v.residual)];
        },
      };
    case 'dw':
      return { stridedViews: true, build: (ctx) => [buildDwConv(layer(), views(ctx), ctx)] };
    case 'rowtaps':
      return { stridedViews: true, scratch: [rowTapScratchBytes(c, x.shape)], build: (ctx) => buildRowTapConv(layer(), views(ctx), ctx.scratch(0), ctx) };
    case 'igemm':
      return { stridedViews: true, build: (ctx) => [buildIgemmConv(layer(), views(ctx), ctx)] };
  }
}

function gemmStep(node: Node, l: ConvLayer, input: TensorView, output: TensorView, ctx: BuildContext, residual: TensorView | undefined): PlannedStep {
  const layer = { weights: l.weights, bias: l.bias, n: l.params.outChannels, k: l.params.inChannels, ...l.epilogue };
  return buildGemm(node, layer, input, output, ctx, residual);
}
