// Which fast lowering each node type tries, in order; a node no lowering covers runs on the fallback.

import type { Node } from '../../graph/graph.ts';
import type { BoundOp } from '../op.ts';
import type { LoweringResult } from '../../runtime/fast/lowering.ts';
import { lowerAlias } from './alias.ts';
import { lowerExpression } from './expression.ts';
import { lowerExpressionWasm } from './expression-wasm.ts';
import { lowerScalarAffine } from './scalar-affine.ts';
import { lowerFallback } from './fallback.ts';
import { lowerDetect } from './yolo-detect.ts';
import { lowerLinear } from './gemm.ts';
// convolution kernels
import { lowerConv } from './conv.ts';
import { lowerConvTranspose } from './conv-transpose.ts';
// pooling, elementwise, resize, softmax, copy kernels
import { lowerActivation, UNARY_TYPES } from './activation.ts';
import { lowerBatchNorm } from './batchnorm.ts';
import { lowerCat } from './cat.ts';
import { lowerBinaryExpression } from './eltwise-binary.ts';
import { lowerPool } from './pool.ts';
import { lowerResize } from './resize.ts';
import { lowerSoftmax } from './softmax.ts';

type Lowering = (node: Node, op: BoundOp) => LoweringResult | undefined;

const ALIASING = ['nn.Identity', 'nn.Dropout', 'nn.Dropout2d', 'F.dropout', 'torch.flatten', 'nn.Flatten', 'Tensor.view', 'Tensor.reshape', 'torch.reshape', 'Tensor.contiguous'];

const LOWERINGS: ReadonlyMap<string, readonly Lowering[]> = new Map<string, Lowering[]>([
  ['models.yolo.Detect', [lowerDetect]],
  // convolution kernels: 1x1 as GEMM, depthwise direct, small-channel stems as row taps, the rest as IGEMM (conv.ts)
  ['nn.Conv2d', [lowerConv]],
  // transposed: kernel = stride as one IGEMM per tap, the rest as an IGEMM with zero taps (conv-transpose.ts)
  ['nn.ConvTranspose2d', [lowerConvTranspose]],
  ['nn.Linear', [lowerLinear]],
  // a single binary op of two operands first (pooling, elementwise... kernels), then a constant affine of one
  // operand (the channel-affine kernel), then arithmetic, min/max and the like as a generated SIMD wasm loop,
  // any other expression as the fused JavaScript loop
  ['pnnx.Expression', [lowerBinaryExpression, lowerScalarAffine, lowerExpressionWasm, lowerExpression]],
  ...ALIASING.map((t): [string, Lowering[]] => [t, [lowerAlias]]),
  // pooling, elementwise, resize, softmax, copy kernels
  ...['nn.MaxPool2d', 'F.max_pool2d', 'nn.AvgPool2d', 'F.avg_pool2d', 'nn.AdaptiveAvgPool2d', 'F.adaptive_avg_pool2d',
    'nn.AdaptiveMaxPool2d', 'F.adaptive_max_pool2d'].map((t): [string, Lowering[]] => [t, [lowerPool]]),
  ...[...UNARY_TYPES.keys()].map((t): [string, Lowering[]] => [t, [lowerActivation]]),
  ...['nn.BatchNorm1d', 'nn.BatchNorm2d'].map((t): [string, Lowering[]] => [t, [lowerBatchNorm]]),
  ...['nn.Upsample', 'F.interpolate', 'F.upsample', 'nn.UpsamplingNearest2d', 'nn.UpsamplingBilinear2d'].map((t): [string, Lowering[]] => [t, [lowerResize]]),
  ...['nn.Softmax', 'F.softmax', 'torch.softmax', 'nn.LogSoftmax', 'F.log_softmax', 'torch.log_softmax'].map((t): [string, Lowering[]] => [t, [lowerSoftmax]]),
  ...['torch.cat', 'torch.concat'].map((t): [string, Lowering[]] => [t, [lowerCat]]),
]);

/** The first lowering that covers the node, else the fallback; `fast` says which it was. */
export function lowerNode(node: Node, op: BoundOp): { result: LoweringResult; fast: boolean } {
  for (const lower of LOWERINGS.get(node.type) ?? []) {
    const result = lower(node, op);
    if (result) return { result, fast: true };
  }
  return { result: lowerFallback(node), fast: false };
}
