// Softmax and log-softmax along one dim (the dim counts the batch axis, as in PyTorch). Stable: the
// row maximum is subtracted before exp, so +-1000 give 1 and 0, not NaN.

import { formatShape, normalizeAxis } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { splitAround } from './layout.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** x seen as (outer, size, inner); each (outer, inner) line along `size` is normalised. */
function softmaxLines(x: Float32Array, outer: number, size: number, inner: number, log: boolean): Float32Array {
  const out = new Float32Array(x.length);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < inner; j++) {
      const at = (i: number) => (o * size + i) * inner + j;
      let max = -Infinity;
      for (let i = 0; i < size; i++) max = Math.max(max, x[at(i)]!);
      let sum = 0;
      for (let i = 0; i < size; i++) sum += Math.exp(x[at(i)]! - max);
      const logSum = Math.log(sum);
      for (let i = 0; i < size; i++) {
        const shifted = x[at(i)]! - max;
        out[at(i)] = log ? shifted - logSum : Math.exp(shifted) / sum;
      }
    }
  }
  return out;
}

function softmaxOp(types: string[], log: boolean): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      const dim = p.int('dim');
      const axisOf = (shape: readonly number[]): number => {
        // PyTorch treats a 0-d tensor as having one dim here.
        const axis = normalizeAxis(dim, Math.max(shape.length, 1));
        if (axis === undefined) return p.fail(`dim=${dim} is out of range for input ${formatShape(shape)}`);
        return axis;
      };
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          axisOf(inputs[0]!.shape);
          return sameAsInput(inputs);
        },
        macs: noMacs,
        reference(inputs) {
          this.infer(inputs);
          const x = inputs[0]!;
          const { outer, size, inner } = x.rank === 0 ? { outer: 1, size: 1, inner: 1 } : splitAround(x.shape, axisOf(x.shape));
          return [new Tensor('f32', x.shape, softmaxLines(x.f32, outer, size, inner, log))];
        },
      };
    },
  };
}

export const softmax = softmaxOp(['nn.Softmax', 'F.softmax', 'torch.softmax'], false);
export const logSoftmax = softmaxOp(['nn.LogSoftmax', 'F.log_softmax', 'torch.log_softmax'], true);
