// Ops that only reshape or reorder: flatten / view / reshape → Flatten or Reshape (the inferred output
// shape as an int64 initializer: the graph is exported for fixed input shapes), permute / transpose →
// Transpose, squeeze / unsqueeze → Squeeze / Unsqueeze with axes as an input (opset 13+), and the
// inference-time identities (dropout, contiguous, Tensor.to float32) → Identity or Cast.

import { normalizeAxis } from '../../../tensor/shape.ts';
import { attr, type Attr } from '../builder.ts';
import type { ExportFamily, NodeContext } from '../context.ts';
import { onnx } from '../proto.ts';

/** Reshape to the inferred output shape; sizes of 0 are kept as 0 (allowzero), not copied from the input. */
function reshapeTo(ctx: NodeContext): void {
  const shape = ctx.outputShape();
  const allowzero: Record<string, Attr> = shape.includes(0) ? { allowzero: attr.int(1) } : {};
  ctx.b.op('Reshape', [ctx.input(0), ctx.b.i64(`${ctx.base}.shape`, shape)], allowzero, ctx.base, ctx.output());
}

export const flattenExport: ExportFamily = {
  types: ['torch.flatten', 'nn.Flatten'],
  export(ctx) {
    const rank = ctx.inputShape(0).length;
    const start = normalizeAxis(ctx.p.int('start_dim', ctx.node.type === 'nn.Flatten' ? 1 : 0), Math.max(rank, 1));
    const end = normalizeAxis(ctx.p.int('end_dim', -1), Math.max(rank, 1));
    // ONNX Flatten always makes 2-D (prod(dims < axis), prod(dims >= axis)): torch.flatten(x, 1) exactly.
    if (start === 1 && end === rank - 1) ctx.b.op('Flatten', [ctx.input(0)], { axis: attr.int(1) }, ctx.base, ctx.output());
    else reshapeTo(ctx);
  },
};

export const reshapeExport: ExportFamily = {
  types: ['Tensor.view', 'Tensor.reshape', 'torch.reshape'],
  export: reshapeTo,
};

function transposeWith(ctx: NodeContext, perm: readonly number[]): void {
  ctx.b.op('Transpose', [ctx.input(0)], { perm: attr.ints(perm) }, ctx.base, ctx.output());
}

export const permuteExport: ExportFamily = {
  types: ['Tensor.permute', 'torch.permute'],
  export(ctx) {
    const rank = ctx.inputShape(0).length;
    transposeWith(ctx, ctx.p.intList('dims').map((d) => normalizeAxis(d, rank)!));
  },
};

export const transposeExport: ExportFamily = {
  types: ['torch.transpose', 'Tensor.transpose'],
  export(ctx) {
    const rank = ctx.inputShape(0).length;
    const perm = Array.from({ length: rank }, (_, i) => i);
    if (rank > 0) {
      const a = normalizeAxis(ctx.p.int('dim0'), rank)!;
      const b = normalizeAxis(ctx.p.int('dim1'), rank)!;
      [perm[a], perm[b]] = [b, a];
    }
    transposeWith(ctx, perm);
  },
};

export const squeezeExport: ExportFamily = {
  types: ['torch.squeeze'],
  export(ctx) {
    const shape = ctx.inputShape(0);
    // The dims PyTorch drops: the listed ones that are 1 (others stay), or every 1 when none is listed.
    const listed = ctx.p.has('dim') ? ctx.p.intList('dim').map((d) => normalizeAxis(d, Math.max(shape.length, 1))!) : shape.map((_, k) => k);
    const axes = [...new Set(listed)].filter((k) => shape[k] === 1).sort((a, b) => a - b);
    if (axes.length === 0) ctx.b.op('Identity', [ctx.input(0)], {}, ctx.base, ctx.output());
    else ctx.b.op('Squeeze', [ctx.input(0), ctx.b.i64(`${ctx.base}.axes`, axes)], {}, ctx.base, ctx.output());
  },
};

export const unsqueezeExport: ExportFamily = {
  types: ['torch.unsqueeze'],
  export(ctx) {
    const axis = normalizeAxis(ctx.p.int('dim'), ctx.inputShape(0).length + 1)!;
    ctx.b.op('Unsqueeze', [ctx.input(0), ctx.b.i64(`${ctx.base}.axes`, [axis])], {}, ctx.base, ctx.output());
  },
};

export const identityExport: ExportFamily = {
  types: [
    'nn.Identity', 'nn.Dropout', 'nn.Dropout1d', 'nn.Dropout2d', 'nn.Dropout3d', 'nn.AlphaDropout',
    'F.dropout', 'F.dropout1d', 'F.dropout2d', 'F.dropout3d', 'F.alpha_dropout', 'Tensor.contiguous',
  ],
  export(ctx) {
    ctx.b.op('Identity', [ctx.input(0)], {}, ctx.base, ctx.output());
  },
};

export const tensorToExport: ExportFamily = {
  types: ['Tensor.to'],
  export(ctx) {
    if (ctx.inputDType(0) === 'f32') ctx.b.op('Identity', [ctx.input(0)], {}, ctx.base, ctx.output());
    else ctx.b.op('Cast', [ctx.input(0)], { to: attr.int(onnx.TensorProto.DataType.FLOAT) }, ctx.base, ctx.output());
  },
};
