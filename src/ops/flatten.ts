// torch.flatten / nn.Flatten: merge dims start_dim..end_dim into one.

import { formatShape, normalizeAxis } from '../tensor/shape.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';
import { reshaped } from './layout.ts';

export const flatten: OpDef = {
  types: ['torch.flatten', 'nn.Flatten'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    // torch.flatten flattens everything by default; nn.Flatten keeps the batch dim.
    const start = p.int('start_dim', node.type === 'nn.Flatten' ? 1 : 0);
    const end = p.int('end_dim', -1);
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        const rank = Math.max(x.shape.length, 1);
        const s = normalizeAxis(start, rank);
        const e = normalizeAxis(end, rank);
        if (s === undefined || e === undefined || s > e) {
          p.fail(`start_dim=${start}, end_dim=${end} do not select dims of input ${formatShape(x.shape)}`);
        }
        const merged = x.shape.slice(s, e + 1).reduce((a, b) => a * b, 1);
        return [{ shape: [...x.shape.slice(0, s), merged, ...x.shape.slice(e + 1)], dtype: x.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        const [out] = this.infer(inputs);
        return [reshaped(inputs[0]!, out!.shape)];
      },
    };
  },
};
