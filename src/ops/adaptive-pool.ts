// Adaptive pooling to a fixed output size (nn.AdaptiveAvgPool2d, nn.AdaptiveMaxPool2d and F. forms).
// Window i along a dim of size n covers [floor(i*n/out), ceil((i+1)*n/out)), as PyTorch computes it.

import { Tensor } from '../tensor/tensor.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

const windowStart = (i: number, n: number, out: number) => Math.floor((i * n) / out);
const windowEnd = (i: number, n: number, out: number) => Math.ceil(((i + 1) * n) / out);

/** x (planes, H, W) → (planes, OH, OW); the average divides by the window's cell count. */
function adaptivePool(kind: 'max' | 'avg', x: Float32Array, planes: number, h: number, w: number, oh: number, ow: number): Float32Array {
  const out = new Float32Array(planes * oh * ow);
  for (let pl = 0; pl < planes; pl++) {
    for (let oy = 0; oy < oh; oy++) {
      const y0 = windowStart(oy, h, oh);
      const y1 = windowEnd(oy, h, oh);
      for (let ox = 0; ox < ow; ox++) {
        const x0 = windowStart(ox, w, ow);
        const x1 = windowEnd(ox, w, ow);
        let acc = kind === 'max' ? -Infinity : 0;
        for (let iy = y0; iy < y1; iy++) {
          for (let ix = x0; ix < x1; ix++) {
            const v = x[(pl * h + iy) * w + ix]!;
            if (kind === 'avg') acc += v;
            else if (v > acc || Number.isNaN(v)) acc = v;
          }
        }
        out[(pl * oh + oy) * ow + ox] = kind === 'avg' ? acc / ((y1 - y0) * (x1 - x0)) : acc;
      }
    }
  }
  return out;
}

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
        reference(inputs) {
          const [out] = this.infer(inputs);
          const x = inputs[0]!;
          const [h, w] = x.shape.slice(-2) as [number, number];
          const [oh, ow] = outSize as [number, number];
          return [Tensor.f32(out!.shape, adaptivePool(kind, x.f32, x.size / (h * w), h, w, oh, ow))];
        },
      };
    },
  };
}

export const adaptiveAvgPool2d = adaptiveOp(['nn.AdaptiveAvgPool2d', 'F.adaptive_avg_pool2d'], 'avg');
export const adaptiveMaxPool2d = adaptiveOp(['nn.AdaptiveMaxPool2d', 'F.adaptive_max_pool2d'], 'max');
