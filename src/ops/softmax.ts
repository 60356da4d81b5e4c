// Softmax and log-softmax along one dim (the dim counts the batch axis, as in PyTorch).

import { formatShape, normalizeAxis } from '../tensor/shape.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

function softmaxOp(types: string[]): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      const dim = p.int('dim');
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          const x = inputs[0]!;
          if (normalizeAxis(dim, x.shape.length) === undefined) p.fail(`dim=${dim} is out of range for input ${formatShape(x.shape)}`);
          return sameAsInput(inputs);
        },
        macs: noMacs,
      };
    },
  };
}

export const softmax = softmaxOp(['nn.Softmax', 'F.softmax', 'torch.softmax']);
export const logSoftmax = softmaxOp(['nn.LogSoftmax', 'F.log_softmax', 'torch.log_softmax']);
