// Tensor.repeat: the input tiled `sizes` times along each dim; more sizes than dims prepend dims of size 1
// first, as in PyTorch (ONNX Tile gives one repeat per dim).

import { formatShape, numel, stridesOf } from '../tensor/shape.ts';
import { gather } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const repeat: OpDef = {
  types: ['Tensor.repeat'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const sizes = p.intList('sizes');
    if (sizes.some((s) => s < 0)) p.fail(`sizes=(${sizes.join(',')}) must be >= 0`);
    const plan = (shape: readonly number[]) => {
      if (sizes.length < shape.length) p.fail(`sizes=(${sizes.join(',')}) has fewer values than input ${formatShape(shape)} has dims`);
      const padded = [...new Array<number>(sizes.length - shape.length).fill(1), ...shape];
      return { padded, out: padded.map((d, k) => d * sizes[k]!) };
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: plan(inputs[0]!.shape).out, dtype: inputs[0]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        const { padded, out } = plan(x.shape);
        const strides = stridesOf(padded);
        const index = new Int32Array(numel(out));
        const pos = new Array<number>(out.length).fill(0);
        for (let i = 0; i < index.length; i++) {
          let offset = 0;
          for (let k = 0; k < out.length; k++) offset += (pos[k]! % padded[k]!) * strides[k]!;
          index[i] = offset;
          for (let k = out.length - 1; k >= 0; k--) {
            if (++pos[k]! < out[k]!) break;
            pos[k] = 0;
          }
        }
        return [gather(x, out, index)];
      },
    };
  },
};
