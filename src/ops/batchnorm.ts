// nn.BatchNorm1d/2d/3d at inference: y = (x - running_mean) / sqrt(running_var + eps) * weight + bias.

import type { Node } from '../graph/graph.ts';
import { formatShape, numel } from '../tensor/shape.ts';
import { sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';
import { allocateWeight } from './init.ts';
import { splitAround } from './layout.ts';
import { Tensor } from '../tensor/tensor.ts';

export const batchNorm: OpDef = {
  types: ['nn.BatchNorm1d', 'nn.BatchNorm2d', 'nn.BatchNorm3d'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const features = p.int('num_features');
    const eps = p.float('eps', 1e-5);
    if (!(eps >= 0)) p.fail(`eps=${eps} must be >= 0`);
    const affine = p.bool('affine', true);
    const stats = affine ? ['running_mean', 'running_var', 'weight', 'bias'] : ['running_mean', 'running_var'];
    for (const key of stats) {
      const s = p.weightShape(key);
      if (!s || s.length !== 1 || s[0] !== features) p.fail(`weight @${key} is ${s ? formatShape(s) : 'missing'}: expected (${features})`);
    }
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        if (x.shape.length < 2 || x.shape[1] !== features) {
          p.fail(`input ${formatShape(x.shape)}: expected (N,${features},...) for num_features=${features}`);
        }
        return sameAsInput(inputs);
      },
      macs: (_inputs, outputs) => numel(outputs[0]!.shape),
      reference(inputs) {
        this.infer(inputs);
        const x = inputs[0]!;
        const mean = p.weightF32('running_mean');
        const variance = p.weightF32('running_var');
        const weight = affine ? p.weightF32('weight') : undefined;
        const bias = affine ? p.weightF32('bias') : undefined;
        // (N, C, *) with the channel at dim 1.
        const { outer, inner } = splitAround(x.shape, 1);
        const xd = x.f32;
        const out = new Float32Array(xd.length);
        for (let n = 0; n < outer; n++) {
          for (let c = 0; c < features; c++) {
            const scale = (weight ? weight[c]! : 1) / Math.sqrt(variance[c]! + eps);
            const shift = bias ? bias[c]! : 0;
            const base = (n * features + c) * inner;
            for (let i = base; i < base + inner; i++) out[i] = (xd[i]! - mean[c]!) * scale + shift;
          }
        }
        return [new Tensor('f32', x.shape, out)];
      },
    };
  },
  initWeights(node, random) {
    // Statistics of a trained net: variance strictly positive, scale near 1.
    const fill: Array<[string, number, number]> = [['running_mean', -0.1, 0.1], ['running_var', 0.5, 1.5], ['weight', 0.8, 1.2], ['bias', -0.1, 0.1]];
    for (const [key, lo, hi] of fill) {
      const data = allocateWeight(node, key);
      if (data) random.fillUniform(data, lo, hi);
    }
  },
};

/**
 * A batch norm as a per-channel affine, y = x * scale[c] + shift[c], in double precision: scale =
 * weight / sqrt(running_var + eps), shift = bias - running_mean * scale. What folding it into a convolution
 * and the fast path's channel-affine kernel both take.
 */
export function batchNormAffine(node: Node): { scale: Float64Array; shift: Float64Array } {
  const p = new ParamReader(node);
  const eps = p.float('eps', 1e-5);
  const affine = p.bool('affine', true);
  const mean = p.weightF32('running_mean');
  const variance = p.weightF32('running_var');
  const weight = affine ? p.weightF32('weight') : undefined;
  const bias = affine ? p.weightF32('bias') : undefined;
  const scale = new Float64Array(mean.length);
  const shift = new Float64Array(mean.length);
  for (let c = 0; c < mean.length; c++) {
    scale[c] = (weight ? weight[c]! : 1) / Math.sqrt(variance[c]! + eps);
    shift[c] = (bias ? bias[c]! : 0) - mean[c]! * scale[c]!;
  }
  return { scale, shift };
}
