// nn.LocalResponseNorm: y = x / (k + alpha / size * sum of x^2 over nearby channels)^beta, the channel window
// of channel c being [c - floor(size/2), c + floor((size-1)/2)] clipped to the channels (PyTorch pads the
// squares with zeros, which add nothing). Channels are dim 1 of an (N,C,*) input.

import { formatShape, numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const localResponseNorm: OpDef = {
  types: ['nn.LocalResponseNorm', 'F.local_response_norm'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const size = p.int('size');
    const alpha = p.float('alpha', 1e-4);
    const beta = p.float('beta', 0.75);
    const k = p.float('k', 1);
    if (size < 1) p.fail(`size=${size} must be >= 1`);
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        if (inputs[0]!.shape.length < 3) p.fail(`input ${formatShape(inputs[0]!.shape)}: expected (N,C,...) of rank >= 3`);
        return sameAsInput(inputs);
      },
      macs: noMacs,
      reference(inputs) {
        this.infer(inputs);
        const x = inputs[0]!;
        const [n, c] = x.shape as [number, number];
        const inner = numel(x.shape.slice(2));
        const xd = x.f32;
        const out = new Float32Array(xd.length);
        const before = Math.floor(size / 2);
        const after = Math.floor((size - 1) / 2);
        for (let b = 0; b < n; b++) {
          for (let ch = 0; ch < c; ch++) {
            const lo = Math.max(0, ch - before);
            const hi = Math.min(c - 1, ch + after);
            for (let i = 0; i < inner; i++) {
              let sum = 0;
              for (let q = lo; q <= hi; q++) sum += xd[(b * c + q) * inner + i]! ** 2;
              const at = (b * c + ch) * inner + i;
              out[at] = xd[at]! / (k + (alpha / size) * sum) ** beta;
            }
          }
        }
        return [new Tensor('f32', x.shape, out)];
      },
    };
  },
};
