// nn.Linear: y = x W^T + b over the last dim; any leading dims are batch.

import { formatShape, numel } from '../tensor/shape.ts';
import type { OpDef } from './op.ts';
import { ParamReader } from './params.ts';
import { initHe } from './init.ts';
import { roundToF32 } from './layout.ts';
import { applyFused, readFusedActivation } from './fused-activation.ts';

export const linear: OpDef = {
  types: ['nn.Linear'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const inFeatures = p.int('in_features');
    const outFeatures = p.int('out_features');
    const hasBias = p.bool('bias', node.weights.has('bias'));
    const activation = readFusedActivation(node);
    const w = p.weightShape('weight');
    if (!w || w.length !== 2 || w[0] !== outFeatures || w[1] !== inFeatures) {
      p.fail(`weight @weight is ${w ? formatShape(w) : 'missing'}: expected (${outFeatures},${inFeatures})`);
    }
    if (hasBias) {
      const b = p.weightShape('bias');
      if (!b || b.length !== 1 || b[0] !== outFeatures) p.fail(`bias=True but @bias is ${b ? formatShape(b) : 'missing'}: expected (${outFeatures})`);
    }
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        if (x.shape.length < 1 || x.shape[x.shape.length - 1] !== inFeatures) {
          p.fail(`input ${formatShape(x.shape)}: expected the last dim to be in_features=${inFeatures}`);
        }
        return [{ shape: [...x.shape.slice(0, -1), outFeatures], dtype: x.dtype }];
      },
      macs: (_inputs, outputs) => numel(outputs[0]!.shape) * inFeatures,
      reference(inputs) {
        const [out] = this.infer(inputs);
        const x = inputs[0]!.f32;
        const weight = p.weightF32('weight'); // (out, in)
        const bias = hasBias ? p.weightF32('bias') : undefined;
        const rows = x.length / inFeatures;
        const acc = new Float64Array(rows * outFeatures);
        for (let r = 0; r < rows; r++) {
          for (let j = 0; j < outFeatures; j++) {
            let s = bias ? bias[j]! : 0;
            for (let k = 0; k < inFeatures; k++) s += x[r * inFeatures + k]! * weight[j * inFeatures + k]!;
            acc[r * outFeatures + j] = s;
          }
        }
        return [applyFused(roundToF32(out!.shape, acc), activation)];
      },
    };
  },
  initWeights(node, random) {
    initHe(node, random, new ParamReader(node).int('in_features'));
  },
};
