// torch.cat: join tensors along one dim; every other dim must agree.

import { formatShape, normalizeAxis } from '../tensor/shape.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';
import { copyBlock, elementWidth, splitAround } from './layout.ts';
import { allocate } from '../tensor/dtype.ts';
import { Tensor } from '../tensor/tensor.ts';

export const cat: OpDef = {
  types: ['torch.cat', 'torch.concat'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const dim = p.int('dim', 0);
    return {
      infer(inputs) {
        if (inputs.length < 1) p.fail('expected at least 1 input');
        const first = inputs[0]!;
        const axis = normalizeAxis(dim, first.shape.length);
        if (axis === undefined) p.fail(`dim=${dim} is out of range for input ${formatShape(first.shape)}`);
        let total = 0;
        for (const [i, x] of inputs.entries()) {
          const fits = x.shape.length === first.shape.length && x.shape.every((d, k) => k === axis || d === first.shape[k]);
          if (!fits) {
            p.fail(`input ${i} ${formatShape(x.shape)} does not match input 0 ${formatShape(first.shape)} outside dim ${dim}`);
          }
          total += x.shape[axis]!;
        }
        const shape = [...first.shape];
        shape[axis] = total;
        return [{ shape, dtype: first.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        const [out] = this.infer(inputs);
        const axis = normalizeAxis(dim, inputs[0]!.rank)!;
        for (const [i, x] of inputs.entries()) {
          if (x.dtype !== inputs[0]!.dtype) p.fail(`input ${i} is ${x.dtype}, input 0 is ${inputs[0]!.dtype}: mixed dtypes are not promoted`);
        }
        // Output seen as (outer, total, inner); each outer block is the inputs' blocks one after another.
        const { outer, size: total, inner } = splitAround(out!.shape, axis);
        const width = elementWidth(inputs[0]!);
        const data = allocate(out!.dtype, outer * total * inner * width);
        let start = 0;
        for (const x of inputs) {
          const block = x.shape[axis]! * inner * width;
          for (let o = 0; o < outer; o++) copyBlock(x.data, o * block, data, (o * total + start) * inner * width, block);
          start += x.shape[axis]!;
        }
        return [new Tensor(out!.dtype, out!.shape, data)];
      },
    };
  },
};
