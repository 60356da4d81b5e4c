// BatchNormalization → nn.BatchNorm1d/2d/3d (inference with the stored statistics; the fold-batchnorm pass
// later merges it into a preceding convolution), InstanceNormalization → nn.InstanceNorm1d/2d/3d (affine),
// LRN → nn.LocalResponseNorm. Before opset 7 BatchNormalization carries is_test (1: inference, the only
// mode an inference engine runs) and spatial (1: one statistic per channel, the only form supported).

import type { Weight } from '../../../../graph/graph.ts';
import { P } from '../../../../graph/param.ts';
import { toFloat32 } from '../../../../tensor/dtype.ts';
import type { Converter, ImportContext, OnnxNode } from '../context.ts';
import { Unsupported } from '../errors.ts';

function vector(ctx: ImportContext, node: OnnxNode, i: number, what: string, channels: number): Weight {
  const t = ctx.constantInput(node, i, what);
  if (!t) throw new Unsupported(`${what} (input ${i}) is missing`);
  if (t.size !== channels) throw new Unsupported(`${what} has shape (${t.shape.join(',')}), expected ${channels} values (one per channel)`);
  return { dtype: 'f32', shape: [channels], data: Float32Array.from(toFloat32(t.dtype, t.data)) };
}

const byRank = (prefix: string, rank: number): string => {
  const dims = rank <= 3 ? 1 : rank - 2;
  if (dims > 3) throw new Unsupported(`input of rank ${rank}: ${prefix}1d/2d/3d take ranks 2 to 5`);
  return `${prefix}${dims}d`;
};

export const batchNormalization: Converter = (ctx, node) => {
  const { attrs } = node;
  if (node.opset < 7 && attrs.int('is_test', 0) !== 1) throw new Unsupported('is_test=0 (training mode): flowinfer runs inference only');
  if (node.opset < 9 && attrs.int('spatial', 1) !== 1) throw new Unsupported('spatial=0 (statistics per element): only per-channel statistics are supported');
  if (attrs.int('training_mode', 0) !== 0) throw new Unsupported('training_mode=1: flowinfer runs inference only');
  attrs.ignore('momentum', 'consumed_inputs');
  const used = node.outputs.slice(1).find((o) => o !== '' && (ctx.consumers.get(o) ?? 0) > 0);
  if (used) throw new Unsupported(`output "${used}" (a training statistic) is used`);
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  if (shape.length < 2) throw new Unsupported(`input of shape (${shape.join(',')}): expected (N,C,...)`);
  const channels = shape[1]!;
  const out = node.outputs[0]!;
  ctx.set(out, ctx.op1(byRank('nn.BatchNorm', shape.length), [x], {
    params: [['num_features', P.int(channels)], ['eps', P.float(attrs.float('epsilon', 1e-5))], ['affine', P.bool(true)]],
    weights: [
      ['running_mean', vector(ctx, node, 3, 'the mean', channels)], ['running_var', vector(ctx, node, 4, 'the variance', channels)],
      ['weight', vector(ctx, node, 1, 'the scale', channels)], ['bias', vector(ctx, node, 2, 'the bias', channels)],
    ],
    outputs: [out],
  }));
};

export const instanceNormalization: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  if (shape.length < 3) throw new Unsupported(`input of shape (${shape.join(',')}): expected (N,C,D1,...)`);
  const channels = shape[1]!;
  const out = node.outputs[0]!;
  ctx.set(out, ctx.op1(byRank('nn.InstanceNorm', shape.length), [x], {
    params: [['num_features', P.int(channels)], ['eps', P.float(node.attrs.float('epsilon', 1e-5))], ['affine', P.bool(true)], ['track_running_stats', P.bool(false)]],
    weights: [['weight', vector(ctx, node, 1, 'the scale', channels)], ['bias', vector(ctx, node, 2, 'the bias', channels)]],
    outputs: [out],
  }));
};

export const lrn: Converter = (ctx, node) => {
  const size = node.attrs.int('size');
  if (size === undefined) throw new Unsupported('attribute size is missing');
  // ONNX centres an even window one channel later than PyTorch does; odd windows agree.
  if (size % 2 === 0) throw new Unsupported(`size=${size}: an even window sits one channel apart in ONNX and PyTorch`);
  const out = node.outputs[0]!;
  ctx.set(out, ctx.op1('nn.LocalResponseNorm', [ctx.get(node.inputs[0]!)], {
    params: [
      ['size', P.int(size)], ['alpha', P.float(node.attrs.float('alpha', 1e-4))],
      ['beta', P.float(node.attrs.float('beta', 0.75))], ['k', P.float(node.attrs.float('bias', 1))],
    ],
    outputs: [out],
  }));
};

/** A layer norm over the last axis found by patterns.ts: inputs x[, gamma, beta], attribute epsilon. */
export const layerNorm: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  const size = shape[shape.length - 1]!;
  const affine = node.inputs.length === 3;
  const out = node.outputs[0]!;
  ctx.set(out, ctx.op1('nn.LayerNorm', [x], {
    params: [['normalized_shape', P.ints([size])], ['eps', P.float(node.attrs.float('epsilon', 1e-5))], ['elementwise_affine', P.bool(affine)], ['bias', P.bool(affine)]],
    weights: affine ? [['weight', vector(ctx, node, 1, 'the scale', size)], ['bias', vector(ctx, node, 2, 'the shift', size)]] : [],
    outputs: [out],
  }));
};
