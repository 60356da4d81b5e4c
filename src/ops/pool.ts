// Max and average pooling (nn.MaxPool2d, nn.AvgPool2d, F.max_pool2d, F.avg_pool2d).

import { noMacs, type OpDef } from './op.ts';
import { inferPool, parsePoolParams } from './pool-params.ts';

function poolOp(types: string[], kind: 'max' | 'avg'): OpDef {
  return {
    types,
    bind(node) {
      const params = parsePoolParams(node, kind);
      return {
        infer: (inputs) => inferPool(node, params, inputs),
        macs: noMacs,
      };
    },
  };
}

export const maxPool2d = poolOp(['nn.MaxPool2d', 'F.max_pool2d'], 'max');
export const avgPool2d = poolOp(['nn.AvgPool2d', 'F.avg_pool2d'], 'avg');
