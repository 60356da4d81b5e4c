// Pooling: nn.MaxPool2d → MaxPool, nn.AvgPool2d → AveragePool (count_include_pad, dilations as PyTorch gives
// them, ceil_mode as explicit end pads); adaptive pooling to 1x1 → GlobalAveragePool / GlobalMaxPool, and to
// any size whose windows tile the input evenly (H, W multiples of the output) → kernel = stride = in/out.
// Uneven adaptive windows (PyTorch's [floor(i*n/out), ceil((i+1)*n/out)) ranges overlap) have no ONNX op.

import { parsePoolParams, type PoolParams } from '../../../ops/pool-params.ts';
import { attr } from '../builder.ts';
import type { ExportFamily, NodeContext } from '../context.ts';
import { batched } from './batched.ts';
import { emitPad } from './padding.ts';

/**
 * ceil_mode as floor mode with longer end pads. ONNX before opset 19 sizes a ceil_mode output without
 * PyTorch's rule that the last window must start inside the input or its left padding (onnxruntime's kernel
 * follows PyTorch anyway, but warns that the model's shapes disagree), so the end pads are made just long
 * enough for floor mode to give PyTorch's output size. Padded cells never win a max and are not counted by
 * count_include_pad=0; for count_include_pad=1 the zeros are padded explicitly first and then counted as
 * cells of the input, which divides a clipped last window by what PyTorch divides it by.
 */
function ceilAsFloor(ctx: NodeContext, c: PoolParams, kind: 'max' | 'avg'): void {
  const { b, base } = ctx;
  const explicit = kind === 'avg' && c.countIncludePad;
  const inSize = ctx.inputShape(0).slice(-2).map((d, i) => d + (explicit ? 2 * c.padding[i]! : 0));
  const outSize = ctx.outputShape().slice(-2);
  const begin = explicit ? [0, 0] : [...c.padding];
  const end = [0, 1].map((i) => Math.max(begin[i]!, (outSize[i]! - 1) * c.stride[i]! + c.dilation[i]! * (c.kernel[i]! - 1) + 1 - inSize[i]! - begin[i]!));
  const attrs = {
    kernel_shape: attr.ints(c.kernel),
    strides: attr.ints(c.stride),
    pads: attr.ints([...begin, ...end]),
    ...(kind === 'max' ? { dilations: attr.ints(c.dilation) } : { count_include_pad: attr.int(0) }),
  };
  const shape4 = ctx.inputShape(0).length === 4 ? ctx.inputShape(0) : [1, ...ctx.inputShape(0)];
  batched(ctx, true, (x, out) => {
    const padded = explicit ? emitPad(b, x, shape4, [[0, 0], [0, 0], [c.padding[0], c.padding[0]], [c.padding[1], c.padding[1]]], 'constant', 0, base) : x;
    return b.op(kind === 'max' ? 'MaxPool' : 'AveragePool', [padded], attrs, base, out);
  });
}

function poolExport(types: string[], kind: 'max' | 'avg'): ExportFamily {
  return {
    types,
    export(ctx) {
      const c = parsePoolParams(ctx.node, kind);
      if (c.divisorOverride !== undefined) ctx.fail(`divisor_override=${c.divisorOverride}: AveragePool always divides by the window size`);
      if (c.ceilMode) return ceilAsFloor(ctx, c, kind);
      const attrs = {
        kernel_shape: attr.ints(c.kernel),
        strides: attr.ints(c.stride),
        pads: attr.ints([c.padding[0], c.padding[1], c.padding[0], c.padding[1]]),
        ...(kind === 'max' ? { dilations: attr.ints(c.dilation) } : { count_include_pad: attr.int(c.countIncludePad ? 1 : 0) }),
      };
      batched(ctx, true, (x, out) => ctx.b.op(kind === 'max' ? 'MaxPool' : 'AveragePool', [x], attrs, ctx.base, out));
    },
  };
}

export const maxPoolExport = poolExport(['nn.MaxPool2d', 'F.max_pool2d'], 'max');
export const avgPoolExport = poolExport(['nn.AvgPool2d', 'F.avg_pool2d'], 'avg');

function adaptiveExport(types: string[], kind: 'max' | 'avg'): ExportFamily {
  return {
    types,
    export(ctx: NodeContext) {
      const [h, w] = ctx.inputShape(0).slice(-2) as [number, number];
      const [oh, ow] = ctx.outputShape().slice(-2) as [number, number];
      if (oh === 1 && ow === 1) {
        batched(ctx, true, (x, out) => ctx.b.op(kind === 'max' ? 'GlobalMaxPool' : 'GlobalAveragePool', [x], {}, ctx.base, out));
        return;
      }
      if (h % oh !== 0 || w % ow !== 0) {
        ctx.fail(`output_size=(${oh},${ow}) from a ${h}x${w} input: uneven adaptive windows have no ONNX operator (sizes that divide the input do)`);
      }
      const kernel = [h / oh, w / ow];
      const attrs = { kernel_shape: attr.ints(kernel), strides: attr.ints(kernel) };
      batched(ctx, true, (x, out) => ctx.b.op(kind === 'max' ? 'MaxPool' : 'AveragePool', [x], attrs, ctx.base, out));
    },
  };
}

export const adaptiveAvgPoolExport = adaptiveExport(['nn.AdaptiveAvgPool2d', 'F.adaptive_avg_pool2d'], 'avg');
export const adaptiveMaxPoolExport = adaptiveExport(['nn.AdaptiveMaxPool2d', 'F.adaptive_max_pool2d'], 'max');
