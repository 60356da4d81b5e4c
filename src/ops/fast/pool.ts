// Pooling nodes on the NHWC pooling kernels: max and average pooling with PyTorch's params
// (pool-params.ts), adaptive pooling (the (1,1) average as the channel-vectorised global pool). Rank-3
// inputs (C,H,W) are stored plain, not NHWC, and stay on the fallback.

import type { Node } from '../../graph/graph.ts';
import { POOL_GLOBAL_BLOCK, POOL_PARAMS_BYTES } from '../../kernels/abi.ts';
import { POOL_KERNELS, poolUnits, writePoolParams, type PoolCall } from '../../kernels/pool.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { parsePoolParams } from '../pool-params.ts';
import { f32Only, rangeStep } from './eltwise-range.ts';

/** The kernel call a pooling node makes, or undefined if it is not one the kernels cover. */
function poolCall(node: Node): PoolCall | undefined {
  switch (node.type) {
    case 'nn.MaxPool2d':
    case 'F.max_pool2d':
    case 'nn.AvgPool2d':
    case 'F.avg_pool2d': {
      const kind = node.type.includes('ax') ? 'max' : 'avg';
      const c = parsePoolParams(node, kind);
      return {
        kind, kernel: c.kernel, stride: c.stride, padding: c.padding, dilation: c.dilation,
        countIncludePad: c.countIncludePad, divisorOverride: c.divisorOverride,
      };
    }
    case 'nn.AdaptiveAvgPool2d':
    case 'F.adaptive_avg_pool2d': {
      const out = node.outputs[0]!.shape!;
      return out[2] === 1 && out[3] === 1 ? { kind: 'global-avg' } : { kind: 'adaptive-avg' };
    }
    case 'nn.AdaptiveMaxPool2d':
    case 'F.adaptive_max_pool2d':
      return { kind: 'adaptive-max' };
    default:
      return undefined;
  }
}

export function lowerPool(node: Node): Lowered | undefined {
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!x || !y || node.inputs.length !== 1 || node.outputs.length !== 1 || !f32Only(x, y)) return undefined;
  if (x.shape!.length !== 4 || y.shape!.length !== 4) return undefined;
  const call = poolCall(node);
  if (!call) return undefined;
  const [n, c, h, w] = x.shape as [number, number, number, number];
  const [, , oh, ow] = y.shape as [number, number, number, number];
  // Work per unit in streamed bytes (eltwise-range.ts): every window tap is a vector load and a max or
  // add, at about 1.5x a streamed float (bench/kernels/eltwise.ts), plus the output row.
  const taps = call.kind === 'max' || call.kind === 'avg' ? call.kernel[0] * call.kernel[1] : Math.ceil(h / oh) * Math.ceil(w / ow);
  const perUnit = call.kind === 'global-avg' ? h * w * POOL_GLOBAL_BLOCK * 4 : ow * c * 4 * (1 + 1.5 * taps);
  return {
    stridedViews: true,
    build(ctx) {
      const xv = ctx.view(x);
      const yv = ctx.view(y);
      const images = { pixelStride: xv.pixelStride, n, c, h, w };
      return rangeStep(ctx, label(node), POOL_KERNELS[call.kind], poolUnits(call.kind, { ...images, at: 0 }, oh), perUnit, POOL_PARAMS_BYTES, (at, base) =>
        writePoolParams(ctx.arena.memory, at, call, { ...images, at: base + xv.offset }, { at: base + yv.offset, pixelStride: yv.pixelStride, oh, ow }));
    },
  };
}
