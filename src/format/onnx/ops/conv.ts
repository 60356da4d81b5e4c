// nn.Conv2d → Conv and nn.ConvTranspose2d → ConvTranspose. Both take PyTorch's weight layouts as they are
// (Conv (out, in/groups, kh, kw); ConvTranspose (in, out/groups, kh, kw)). Asymmetric pads ('same' with an
// even kernel) go in Conv's begin/end pads; other padding modes become a Pad (or Concat) before the Conv.
// What the optimiser fused into a convolution is written out after it, in the reference's order:
//   Conv → Add(residual input)  (flowinfer.residual) → the activation (flowinfer.activation).
// Unbatched (C,H,W) inputs get a batch dim around the ONNX op, which needs (N,C,H,W).

import { parseConvParams, type ConvParams } from '../../../ops/conv-params.ts';
import { attr, type Attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';
import { batched } from './batched.ts';
import { emitFusedActivation, hasFusedActivation } from './activation.ts';
import { emitPad } from './padding.ts';

function commonAttrs(c: ConvParams): Record<string, Attr> {
  return {
    kernel_shape: attr.ints(c.kernel),
    strides: attr.ints(c.stride),
    dilations: attr.ints(c.dilation),
    group: attr.int(c.groups),
  };
}

export const convExport: ExportFamily = {
  types: ['nn.Conv2d'],
  export(ctx) {
    const { b, base, node } = ctx;
    const c = parseConvParams(node, false);
    const act = hasFusedActivation(node);
    const last = !act && !c.residual;
    const w = ctx.weight('weight');
    const bias = c.hasBias ? [ctx.weight('bias')] : [];
    let y = batched(ctx, last, (x, out) => {
      let pads = [c.padBegin[0], c.padBegin[1], c.padEnd[0], c.padEnd[1]];
      if (c.paddingMode !== 'zeros') {
        const shape = [1, c.inChannels, ...ctx.inputShape(0).slice(-2)];
        x = emitPad(b, x, shape, [[0, 0], [0, 0], [c.padBegin[0], c.padEnd[0]], [c.padBegin[1], c.padEnd[1]]], c.paddingMode, 0, base);
        pads = [0, 0, 0, 0];
      }
      return b.op('Conv', [x, w, ...bias], { ...commonAttrs(c), pads: attr.ints(pads) }, base, out);
    });
    if (c.residual) y = b.op('Add', [y, ctx.input(1)], {}, base, act ? undefined : ctx.output());
    if (act) emitFusedActivation(ctx, y, ctx.output());
  },
};

/**
 * ConvTranspose for PyTorch's output_padding. onnxruntime refuses output_padding >= stride, which PyTorch
 * allows up to max(stride, dilation). The extra rows are an end crop that is not taken, so up to the end
 * pad they are the same as a smaller end pad; beyond it, they lie past every tap and hold only the bias:
 * then the full transposed convolution is zero-padded at the end, cropped to PyTorch's window, and biased.
 */
function convTransposePlan(c: ConvParams): 'direct' | 'end-pads' | 'crop' {
  if (c.outputPadding.every((op, i) => op < c.stride[i]!)) return 'direct';
  return c.outputPadding.every((op, i) => op <= c.padEnd[i]!) ? 'end-pads' : 'crop';
}

export const convTransposeExport: ExportFamily = {
  types: ['nn.ConvTranspose2d'],
  export(ctx) {
    const { b, base } = ctx;
    const c = parseConvParams(ctx.node, true);
    const act = hasFusedActivation(ctx.node);
    const w = ctx.weight('weight');
    const plan = convTransposePlan(c);
    let y: string;
    if (plan !== 'crop') {
      const end = plan === 'direct' ? c.padEnd : [c.padEnd[0] - c.outputPadding[0], c.padEnd[1] - c.outputPadding[1]];
      const bias = c.hasBias ? [ctx.weight('bias')] : [];
      y = batched(ctx, !act, (x, out) => b.op('ConvTranspose', [x, w, ...bias], {
        ...commonAttrs(c),
        pads: attr.ints([c.padBegin[0], c.padBegin[1], end[0]!, end[1]!]),
        output_padding: attr.ints(plan === 'direct' ? c.outputPadding : [0, 0]),
      }, base, out));
    } else {
      const [oh, ow] = ctx.outputShape().slice(-2) as [number, number];
      y = batched(ctx, !act, (x, out) => {
        const full = b.op('ConvTranspose', [x, w], { ...commonAttrs(c), pads: attr.ints([0, 0, 0, 0]) }, base);
        const grow = [0, 1].map((i) => Math.max(0, c.outputPadding[i]! - c.padEnd[i]!));
        const padded = b.op('Pad', [full, b.i64(`${base}.tail`, [0, 0, 0, 0, 0, 0, grow[0]!, grow[1]!])], {}, base);
        const window = b.slice(base, padded, c.padBegin, [c.padBegin[0] + oh, c.padBegin[1] + ow], [2, 3], undefined, c.hasBias ? undefined : out);
        if (!c.hasBias) return window;
        return b.op('Add', [window, b.f32(`${ctx.node.name}.bias_c11`, [c.outChannels, 1, 1], ctx.p.weightF32('bias'))], {}, base, out);
      });
    }
    // The optimiser may have fused an activation in (activation-fusion.ts): it follows, as for Conv.
    if (act) emitFusedActivation(ctx, y, ctx.output());
  },
};
