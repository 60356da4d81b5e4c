// Adaptive pooling to a fixed output size (nn.AdaptiveAvgPool2d, nn.AdaptiveMaxPool2d and F. forms).
// Window i along a dim of size n covers [floor(i*n/out), ceil((i+1)*n/out)), as PyTorch computes it.

import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

function adaptiveOp(types: string[], kind: 'max' | 'avg'): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      const outSize = p.ints('output_size', 2);
      if (outSize.some((d) => d < 1)) p.fail(`output_size=(${outSize.join(',')}) must be >= 1`);
      if (kind === 'max' && p.bool('return_indices', false)) p.fail('return_indices=True is not supported');
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          p.expectRank(inputs[0]!, [3, 4]);
          return [{ shape: [...inputs[0]!.shape.slice(0, -2), ...outSize], dtype: inputs[0]!.dtype }];
        },
        macs: noMacs,
      };
    },
  };
}

export const adaptiveAvgPool2d = adaptiveOp(['nn.AdaptiveAvgPool2d', 'F.adaptive_avg_pool2d'], 'avg');
export const adaptiveMaxPool2d = adaptiveOp(['nn.AdaptiveMaxPool2d', 'F.adaptive_max_pool2d'], 'max');
