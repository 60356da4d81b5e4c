// nn.BatchNorm1d/2d/3d → BatchNormalization (inference: the stored statistics; no affine → scale 1, bias 0)
// and nn.LayerNorm / F.layer_norm → LayerNormalization over the last len(normalized_shape) dims.

import type { Node } from '../../../graph/graph.ts';
import { numel } from '../../../tensor/shape.ts';
import { attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';

export const batchNormExport: ExportFamily = {
  types: ['nn.BatchNorm1d', 'nn.BatchNorm2d', 'nn.BatchNorm3d'],
  export(ctx) {
    const { b, p } = ctx;
    const features = p.int('num_features');
    const affine = p.bool('affine', true);
    const scale = affine ? ctx.weight('weight') : b.f32(`${ctx.base}.ones`, [features], new Float32Array(features).fill(1));
    const bias = affine ? ctx.weight('bias') : b.f32(`${ctx.base}.zeros`, [features], new Float32Array(features));
    b.op('BatchNormalization', [ctx.input(0), scale, bias, ctx.weight('running_mean'), ctx.weight('running_var')],
      { epsilon: attr.float(p.float('eps', 1e-5)) }, ctx.base, ctx.output());
  },
};

/** Where F.layer_norm's optional weight and bias inputs sit ($weight/$bias keys, else by position). */
function affineInput(node: Node, key: string, positional: number): number | undefined {
  const name = node.inputKeys.get(key);
  if (name !== undefined) return node.inputs.findIndex((v) => v.name === name);
  return node.inputKeys.size === 0 && node.inputs.length > positional ? positional : undefined;
}

export const layerNormExport: ExportFamily = {
  types: ['nn.LayerNorm', 'F.layer_norm'],
  export(ctx) {
    const { b, node, p } = ctx;
    const normalized = p.intList('normalized_shape');
    let scale: string | undefined;
    let bias: string | undefined;
    if (node.type === 'nn.LayerNorm') {
      if (p.bool('elementwise_affine', true)) {
        scale = ctx.weight('weight');
        if (p.bool('bias', node.weights.has('bias'))) bias = ctx.weight('bias');
      }
    } else {
      const w = affineInput(node, 'weight', 1);
      const bi = affineInput(node, 'bias', 2);
      if (w !== undefined) scale = ctx.input(w);
      if (bi !== undefined) bias = ctx.input(bi);
    }
    // LayerNormalization needs a scale; PyTorch's absent weight means 1.
    scale ??= b.f32(`${ctx.base}.ones`, normalized, new Float32Array(numel(normalized)).fill(1));
    b.op('LayerNormalization', [ctx.input(0), scale, ...(bias ? [bias] : [])],
      { axis: attr.int(-normalized.length), epsilon: attr.float(p.float('eps', 1e-5)) }, ctx.base, ctx.output());
  },
};
