// nn.Conv2d and nn.ConvTranspose2d.

import type { OpDef } from './op.ts';
import { convMacs, inferConv, parseConvParams } from './conv-params.ts';

export const conv2d: OpDef = {
  types: ['nn.Conv2d'],
  bind(node) {
    const params = parseConvParams(node, false);
    return {
      infer: (inputs) => inferConv(node, params, false, inputs),
      macs: (inputs, outputs) => convMacs(params, false, inputs, outputs),
    };
  },
};

export const convTranspose2d: OpDef = {
  types: ['nn.ConvTranspose2d'],
  bind(node) {
    const params = parseConvParams(node, true);
    return {
      infer: (inputs) => inferConv(node, params, true, inputs),
      macs: (inputs, outputs) => convMacs(params, true, inputs, outputs),
    };
  },
};
