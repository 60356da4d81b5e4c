// Ops that are the identity at inference: nn.Identity, the dropouts, Tensor.contiguous (tensors are always
// contiguous here), and Tensor.to when it casts to float32 (the only element type the references compute in).

import { toFloat32 } from '../tensor/dtype.ts';
import { Tensor } from '../tensor/tensor.ts';
import { reshaped } from './layout.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const identity: OpDef = {
  types: [
    'nn.Identity', 'nn.Dropout', 'nn.Dropout1d', 'nn.Dropout2d', 'nn.Dropout3d', 'nn.AlphaDropout',
    'F.dropout', 'F.dropout1d', 'F.dropout2d', 'F.dropout3d', 'F.alpha_dropout', 'Tensor.contiguous',
  ],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return sameAsInput(inputs);
      },
      macs: noMacs,
      reference(inputs) {
        this.infer(inputs);
        return [reshaped(inputs[0]!, inputs[0]!.shape)];
      },
    };
  },
};

/** PyTorch's names for float32, as pnnx writes Tensor.to's dtype param. */
const FLOAT32_NAMES = ['torch.float', 'torch.float32'] as const;

export const tensorTo: OpDef = {
  types: ['Tensor.to'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    if (p.has('dtype')) p.string('dtype', FLOAT32_NAMES);
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: inputs[0]!.shape, dtype: 'f32' }];
      },
      macs: noMacs,
      reference(inputs) {
        this.infer(inputs);
        const x = inputs[0]!;
        if (x.dtype === 'f32') return [reshaped(x, x.shape)];
        return [new Tensor('f32', x.shape, toFloat32(x.dtype, x.data))];
      },
    };
  },
};
