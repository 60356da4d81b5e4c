// torch.mean and torch.sum over some dims (`dim` an int or a tuple; absent or None: every dim), keeping
// them as size 1 with keepdim=True. Sums run in double and round once to float32.

import { formatShape, normalizeAxis, numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { stridedIndex } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

function reduceOp(types: string[], kind: 'mean' | 'sum'): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      const dims = p.has('dim') ? p.intList('dim') : undefined;
      const keepdim = p.bool('keepdim', false);
      /** Which input dims are reduced. */
      const reduced = (shape: Shape): boolean[] => {
        if (!dims) return shape.map(() => true);
        const flags = shape.map(() => false);
        for (const d of dims) {
          // A 0-d tensor accepts dim 0 / -1, as in PyTorch.
          const axis = normalizeAxis(d, Math.max(shape.length, 1));
          if (axis === undefined || flags[axis]) p.fail(`dim=(${dims.join(',')}) is out of range or repeats a dim of input ${formatShape(shape)}`);
          if (axis < shape.length) flags[axis] = true;
        }
        return flags;
      };
      const outShape = (shape: Shape, flags: readonly boolean[]) => shape.flatMap((d, k) => (flags[k] ? (keepdim ? [1] : []) : [d]));
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          const x = inputs[0]!;
          return [{ shape: outShape(x.shape, reduced(x.shape)), dtype: x.dtype }];
        },
        macs: noMacs,
        reference(inputs) {
          p.expectInputs(inputs, 1);
          const x = inputs[0]!;
          const flags = reduced(x.shape);
          // Output offset of every input element (row-major): reduced dims step 0 through the output.
          const kept = x.shape.map((d, k) => (flags[k] ? 1 : d));
          const keptStrides = stridesOf(kept);
          const target = stridedIndex(x.shape, 0, x.shape.map((_, k) => (flags[k] ? 0 : keptStrides[k]!)));
          const acc = new Float64Array(numel(kept));
          const xd = x.f32;
          for (let i = 0; i < xd.length; i++) acc[target[i]!] += xd[i]!;
          const count = numel(x.shape) / acc.length;
          if (kind === 'mean') for (let i = 0; i < acc.length; i++) acc[i] = acc[i]! / count;
          return [new Tensor('f32', outShape(x.shape, flags), Float32Array.from(acc))];
        },
      };
    },
  };
}

export const mean = reduceOp(['torch.mean'], 'mean');
export const sum = reduceOp(['torch.sum'], 'sum');
