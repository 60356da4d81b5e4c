// torch.where(condition, input, other): input where the condition is non-zero, other elsewhere, all three
// broadcast together (numpy's rule). The condition may be bool or a number (0 is false).

import { broadcastShapes, formatShape, numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { allocate } from '../tensor/dtype.ts';
import { Tensor } from '../tensor/tensor.ts';
import { stridedIndex } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** For each element of `out`, the flat index into a tensor of `shape` broadcast to it. */
function broadcastIndex(out: Shape, shape: Shape): Int32Array {
  const strides = stridesOf(shape);
  const lead = out.length - shape.length;
  return stridedIndex(out, 0, out.map((_, k) => (k < lead || shape[k - lead] === 1 ? 0 : strides[k - lead]!)));
}

export const where: OpDef = {
  types: ['torch.where'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const plan = (shapes: readonly Shape[]): number[] => {
      const out = broadcastShapes(shapes);
      if (!out) p.fail(`condition ${formatShape(shapes[0]!)}, input ${formatShape(shapes[1]!)} and other ${formatShape(shapes[2]!)} do not broadcast`);
      return out;
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 3);
        if (inputs[1]!.dtype !== inputs[2]!.dtype) p.fail(`input is ${inputs[1]!.dtype} and other is ${inputs[2]!.dtype}: mixed dtypes are not promoted`);
        return [{ shape: plan(inputs.map((i) => i.shape)), dtype: inputs[1]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        const [info] = this.infer(inputs);
        const [cond, a, b] = inputs as [Tensor, Tensor, Tensor];
        const out = info!.shape;
        const [ci, ai, bi] = [cond, a, b].map((t) => broadcastIndex(out, t.shape)) as [Int32Array, Int32Array, Int32Array];
        const data = allocate(a.dtype, numel(out));
        const cd = cond.data;
        for (let i = 0; i < data.length; i++) {
          const pick = Number(cd[ci[i]!]) !== 0;
          (data as unknown as Array<number | bigint>)[i] = pick ? a.data[ai[i]!]! : b.data[bi[i]!]!;
        }
        return [new Tensor(a.dtype, out, data)];
      },
    };
  },
};
