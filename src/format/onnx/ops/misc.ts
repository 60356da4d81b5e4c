// The remaining one-to-one ops: softmax / log-softmax along a dim (opset 13+: that axis alone), torch.mean /
// torch.sum → ReduceMean (axes attribute in opset 17) / ReduceSum (axes input since opset 13), PReLU with
// its slopes shaped to broadcast from dim 1, padding (padding.ts), and pnnx.Attribute as an initializer.

import type { BorderMode } from '../../../ops/border.ts';
import { normalizeAxis } from '../../../tensor/shape.ts';
import { attr } from '../builder.ts';
import type { ExportFamily, NodeContext } from '../context.ts';
import { elementType } from '../tensor.ts';
import { emitPad } from './padding.ts';

function softmaxExport(types: string[], opType: string): ExportFamily {
  return {
    types,
    export(ctx) {
      const rank = ctx.inputShape(0).length;
      if (rank === 0) ctx.fail('a 0-d input: ONNX softmax needs a tensor with an axis');
      ctx.b.op(opType, [ctx.input(0)], { axis: attr.int(normalizeAxis(ctx.p.int('dim'), rank)!) }, ctx.base, ctx.output());
    },
  };
}

export const softmaxExports = [
  softmaxExport(['nn.Softmax', 'F.softmax', 'torch.softmax'], 'Softmax'),
  softmaxExport(['nn.LogSoftmax', 'F.log_softmax', 'torch.log_softmax'], 'LogSoftmax'),
];

function reduceExport(types: string[], kind: 'mean' | 'sum'): ExportFamily {
  return {
    types,
    export(ctx) {
      const { b, base, p } = ctx;
      const rank = ctx.inputShape(0).length;
      if (rank === 0) {
        b.op('Identity', [ctx.input(0)], {}, base, ctx.output());
        return;
      }
      const axes = p.has('dim') ? p.intList('dim').map((d) => normalizeAxis(d, rank)!) : Array.from({ length: rank }, (_, k) => k);
      const keepdims = attr.int(p.bool('keepdim', false) ? 1 : 0);
      if (kind === 'mean') b.op('ReduceMean', [ctx.input(0)], { axes: attr.ints(axes), keepdims }, base, ctx.output());
      else b.op('ReduceSum', [ctx.input(0), b.i64(`${base}.axes`, axes)], { keepdims }, base, ctx.output());
    },
  };
}

export const reduceExports = [reduceExport(['torch.mean'], 'mean'), reduceExport(['torch.sum'], 'sum')];

export const preluExport: ExportFamily = {
  types: ['nn.PReLU', 'F.prelu'],
  export(ctx: NodeContext) {
    const { b, base } = ctx;
    const rank = ctx.inputShape(0).length;
    const module = ctx.node.type === 'nn.PReLU';
    const count = module ? ctx.p.int('num_parameters', 1) : ctx.inputShape(1).reduce((a, d) => a * d, 1);
    // ONNX PRelu broadcasts the slope to X from the right: a per-channel slope must be (C, 1, ..., 1).
    const slopeShape = count === 1 ? [1] : [count, ...new Array<number>(Math.max(rank - 2, 0)).fill(1)];
    const slope = module ? ctx.weight('weight', slopeShape) : b.op('Reshape', [ctx.input(1), b.i64(`${base}.slope_shape`, slopeShape)], {}, base);
    b.op('PRelu', [ctx.input(0), slope], {}, base, ctx.output());
  },
};

const PAD_MODULES: Readonly<Record<string, BorderMode>> = {
  Zero: 'constant', Constant: 'constant', Reflection: 'reflect', Replication: 'replicate', Circular: 'circular',
};

export const padExport: ExportFamily = {
  types: ['F.pad', ...Object.keys(PAD_MODULES).flatMap((m) => [1, 2, 3].map((d) => `nn.${m}Pad${d}d`))],
  export(ctx) {
    const { p } = ctx;
    let mode: BorderMode;
    let list: number[];
    let value = 0;
    if (ctx.node.type === 'F.pad') {
      list = p.intList('pad');
      mode = p.string<BorderMode>('mode', ['constant', 'reflect', 'replicate', 'circular'], 'constant');
      if (mode === 'constant' && p.has('value')) value = p.float('value');
    } else {
      const [, kind, dims] = /^nn\.(\w+?)Pad(\d)d$/.exec(ctx.node.type)!;
      mode = PAD_MODULES[kind!]!;
      list = p.ints('padding', 2 * Number(dims));
      if (kind === 'Constant') value = p.float('value');
    }
    // PyTorch's list runs from the last dim backwards: (last_before, last_after, second_last_before, ...).
    const shape = ctx.inputShape(0);
    const pads = shape.map((): [number, number] => [0, 0]);
    for (let i = 0; i < list.length / 2; i++) pads[shape.length - 1 - i] = [list[2 * i]!, list[2 * i + 1]!];
    emitPad(ctx.b, ctx.input(0), shape, pads, mode, value, ctx.base, ctx.output());
  },
};

export const attributeExport: ExportFamily = {
  types: ['pnnx.Attribute'],
  export(ctx) {
    const w = ctx.p.weight('data');
    const dtype = w.dtype ?? 'f32';
    if (elementType(dtype) === undefined) ctx.fail(`a ${dtype} constant: ONNX export writes real dtypes only`);
    ctx.b.initializer(ctx.output(), dtype, w.shape, w.data, true);
  },
};
