// nn.InstanceNorm1d/2d/3d: each (sample, channel) plane is normalised by its own mean and biased variance,
// y = (x - mean) / sqrt(var + eps) * weight[c] + bias[c] (affine). PyTorch's default track_running_stats=False
// is the only form: with running statistics an instance norm at eval is a batch norm.

import { formatShape, numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { initNormAffine, meanAndVariance } from './layernorm.ts';
import { sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const instanceNorm: OpDef = {
  types: ['nn.InstanceNorm1d', 'nn.InstanceNorm2d', 'nn.InstanceNorm3d'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const spatial = Number(node.type.slice(-2, -1));
    const features = p.int('num_features');
    const eps = p.float('eps', 1e-5);
    const affine = p.bool('affine', false);
    if (p.bool('track_running_stats', false)) p.fail('track_running_stats=True is not supported (at eval it would use running statistics)');
    if (!(eps >= 0)) p.fail(`eps=${eps} must be >= 0`);
    for (const key of affine ? ['weight', 'bias'] : []) {
      const s = p.weightShape(key);
      if (!s || s.length !== 1 || s[0] !== features) p.fail(`weight @${key} is ${s ? formatShape(s) : 'missing'}: expected (${features})`);
    }
    /** Channels sit just before the spatial dims; a batch dim is optional, as in PyTorch. */
    const check = (shape: readonly number[]) => {
      if (shape.length !== spatial + 1 && shape.length !== spatial + 2) p.fail(`input ${formatShape(shape)}: expected rank ${spatial + 1} or ${spatial + 2}`);
      if (shape[shape.length - spatial - 1] !== features) p.fail(`input ${formatShape(shape)} has ${shape[shape.length - spatial - 1]} channels, expected num_features=${features}`);
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        check(inputs[0]!.shape);
        return sameAsInput(inputs);
      },
      macs: (_inputs, outputs) => numel(outputs[0]!.shape),
      reference(inputs) {
        this.infer(inputs);
        const x = inputs[0]!;
        const plane = numel(x.shape.slice(-spatial));
        const weight = affine ? p.weightF32('weight') : undefined;
        const bias = affine ? p.weightF32('bias') : undefined;
        const xd = x.f32;
        const out = new Float32Array(xd.length);
        for (let base = 0, c = 0; base < xd.length; base += plane, c = (c + 1) % features) {
          const [mean, variance] = meanAndVariance(xd, base, plane);
          const scale = (weight ? weight[c]! : 1) / Math.sqrt(variance + eps);
          const shift = bias ? bias[c]! : 0;
          for (let i = 0; i < plane; i++) out[base + i] = (xd[base + i]! - mean) * scale + shift;
        }
        return [new Tensor('f32', x.shape, out)];
      },
    };
  },
  initWeights: initNormAffine,
};
