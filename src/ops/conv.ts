// nn.Conv2d and nn.ConvTranspose2d.

import type { OpDef } from './op.ts';
import { initHe } from './init.ts';
import { convMacs, inferConv, parseConvParams } from './conv-params.ts';
import { conv2dReference, convTranspose2dReference } from './conv-reference.ts';
import { ParamReader } from './params.ts';
import type { Tensor } from '../tensor/tensor.ts';

/** y += r elementwise, rounded to float32 once (y already holds float32 values). */
function addInPlace(y: Tensor, r: Tensor): void {
  const a = y.f32;
  const b = r.f32;
  for (let i = 0; i < a.length; i++) a[i] = a[i]! + b[i]!;
}
import { applyFused, readFusedActivation } from './fused-activation.ts';

export const conv2d: OpDef = {
  types: ['nn.Conv2d'],
  bind(node) {
    const params = parseConvParams(node, false);
    const p: ParamReader = new ParamReader(node);
    const activation = readFusedActivation(node);
    return {
      infer: (inputs) => inferConv(node, params, false, inputs),
      macs: (inputs, outputs) => convMacs(params, false, inputs, outputs),
      reference(inputs) {
        inferConv(node, params, false, inputs);
        const bias = params.hasBias ? p.weightF32('bias') : undefined;
        const y = conv2dReference(params, inputs[0]!, p.weightF32('weight'), bias);
        if (params.residual) addInPlace(y, inputs[1]!);
        return [applyFused(y, activation)];
      },
    };
  },
  initWeights(node, random) {
    const c = parseConvParams(node, false);
    initHe(node, random, (c.inChannels / c.groups) * c.kernel[0] * c.kernel[1]);
  },
};

export const convTranspose2d: OpDef = {
  types: ['nn.ConvTranspose2d'],
  bind(node) {
    const params = parseConvParams(node, true);
    const p: ParamReader = new ParamReader(node);
    const activation = readFusedActivation(node);
    return {
      infer: (inputs) => inferConv(node, params, true, inputs),
      macs: (inputs, outputs) => convMacs(params, true, inputs, outputs),
      reference(inputs) {
        inferConv(node, params, true, inputs);
        const bias = params.hasBias ? p.weightF32('bias') : undefined;
        return [applyFused(convTranspose2dReference(params, inputs[0]!, p.weightF32('weight'), bias), activation)];
      },
    };
  },
  initWeights(node, random) {
    // Each output gathers in/groups x kh x kw / (stride_h x stride_w) products on average.
    const c = parseConvParams(node, true);
    const fanIn = Math.max(1, ((c.inChannels / c.groups) * c.kernel[0] * c.kernel[1]) / (c.stride[0] * c.stride[1]));
    initHe(node, random, fanIn);
  },
};
