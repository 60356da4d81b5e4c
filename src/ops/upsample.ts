// Resizing: nn.Upsample, F.interpolate, F.upsample (nearest, bilinear).

import { noMacs, type OpDef } from './op.ts';
import { inferResize, parseResizeParams } from './upsample-params.ts';

export const upsample: OpDef = {
  types: ['nn.Upsample', 'F.interpolate', 'F.upsample', 'nn.UpsamplingNearest2d', 'nn.UpsamplingBilinear2d'],
  bind(node) {
    const params = parseResizeParams(node);
    return {
      infer: (inputs) => inferResize(node, params, inputs),
      macs: noMacs,
    };
  },
};
