// nn.Linear, y = x W^T + b over the last dim: Gemm(transB=1) for (N, in) inputs; for other ranks (a
// (..., in) batch, or a single (in) vector) MatMul with W^T stored transposed, then Add of the bias.
// A fused activation follows. torch.matmul / mm / bmm are MatMul (numpy's rules, as PyTorch's).

import { attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';
import { emitFusedActivation, hasFusedActivation } from './activation.ts';

export const linearExport: ExportFamily = {
  types: ['nn.Linear'],
  export(ctx) {
    const { b, base, node, p } = ctx;
    const inF = p.int('in_features');
    const outF = p.int('out_features');
    const hasBias = p.bool('bias', node.weights.has('bias'));
    const act = hasFusedActivation(node);
    const out = act ? undefined : ctx.output();
    let y: string;
    if (ctx.inputShape(0).length === 2) {
      const bias = hasBias ? [ctx.weight('bias')] : [];
      y = b.op('Gemm', [ctx.input(0), ctx.weight('weight'), ...bias], { transB: attr.int(1) }, base, out);
    } else {
      const w = p.weightF32('weight'); // (out, in) → (in, out)
      const wt = new Float32Array(w.length);
      for (let o = 0; o < outF; o++) for (let i = 0; i < inF; i++) wt[i * outF + o] = w[o * inF + i]!;
      const product = b.op('MatMul', [ctx.input(0), b.f32(`${node.name}.weight_t`, [inF, outF], wt)], {}, base, hasBias ? undefined : out);
      y = hasBias ? b.op('Add', [product, ctx.weight('bias')], {}, base, out) : product;
    }
    if (act) emitFusedActivation(ctx, y, ctx.output());
  },
};

export const matmulExport: ExportFamily = {
  types: ['torch.matmul', 'torch.mm', 'torch.bmm'],
  export(ctx) {
    ctx.b.op('MatMul', [ctx.input(0), ctx.input(1)], {}, ctx.base, ctx.output());
  },
};
