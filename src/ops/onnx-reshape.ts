// onnx.Reshape: ONNX's Reshape with its target as a param, for targets PyTorch's view cannot state for
// every input size: a 0 copies the input's size at the same position (unless allowzero), and one -1 takes
// what the others leave. The importer uses it only when Tensor.reshape (one -1) and torch.flatten cannot
// say it, e.g. (N, S, 360) → (N, S, 3, 8, 15) written as (0, 0, 3, 8, 15) for any batch N and length S.

import { formatShape, numel, type Shape } from '../tensor/shape.ts';
import { reshaped } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const onnxReshape: OpDef = {
  types: ['onnx.Reshape'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const target = p.intList('shape');
    const allowZero = p.bool('allowzero', false);
    if (target.filter((d) => d === -1).length > 1 || target.some((d) => d < -1)) p.fail(`shape=(${target.join(',')}): expected sizes >= 0 and at most one -1`);
    const resolve = (input: Shape): number[] => {
      const shape = target.map((d, i) => {
        if (d !== 0 || allowZero) return d;
        if (i >= input.length) p.fail(`shape=(${target.join(',')}) copies dim ${i}, input ${formatShape(input)} has ${input.length} dims`);
        return input[i]!;
      });
      const free = shape.indexOf(-1);
      const known = shape.reduce((a, d) => (d === -1 ? a : a * d), 1);
      const count = numel(input);
      if (free >= 0) {
        if (known === 0 || count % known !== 0) p.fail(`shape=(${target.join(',')}) does not fit input ${formatShape(input)}`);
        shape[free] = count / known;
      } else if (known !== count) {
        p.fail(`shape=(${target.join(',')}) gives ${known} elements, input ${formatShape(input)} holds ${count}`);
      }
      return shape;
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: resolve(inputs[0]!.shape), dtype: inputs[0]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, 1);
        return [reshaped(inputs[0]!, resolve(inputs[0]!.shape))];
      },
    };
  },
};
