// Max and average pooling (nn.MaxPool2d, nn.AvgPool2d, F.max_pool2d, F.avg_pool2d).

import { Tensor } from '../tensor/tensor.ts';
import { noMacs, type OpDef } from './op.ts';
import { inferPool, parsePoolParams, type PoolParams } from './pool-params.ts';

/**
 * Max pooling over (planes, H, W): padded cells never win (they are skipped, not -inf candidates), and a
 * NaN in the window wins, as in PyTorch.
 */
function maxPool(c: PoolParams, x: Float32Array, planes: number, h: number, w: number, oh: number, ow: number): Float32Array {
  const out = new Float32Array(planes * oh * ow);
  for (let pl = 0; pl < planes; pl++) {
    for (let oy = 0; oy < oh; oy++) {
      for (let ox = 0; ox < ow; ox++) {
        let best = -Infinity;
        for (let ky = 0; ky < c.kernel[0]; ky++) {
          const iy = oy * c.stride[0] - c.padding[0] + ky * c.dilation[0];
          if (iy < 0 || iy >= h) continue;
          for (let kx = 0; kx < c.kernel[1]; kx++) {
            const ix = ox * c.stride[1] - c.padding[1] + kx * c.dilation[1];
            if (ix < 0 || ix >= w) continue;
            const v = x[(pl * h + iy) * w + ix]!;
            if (v > best || Number.isNaN(v)) best = v;
          }
        }
        out[(pl * oh + oy) * ow + ox] = best;
      }
    }
  }
  return out;
}

/**
 * Average pooling exactly as PyTorch's avg_pool2d: the window is first clipped to the padded input
 * (that size is the count_include_pad divisor, so a ceil_mode window hanging past the padding divides by
 * fewer cells than kh x kw), then to the input (that size is the divisor without padding).
 */
function avgPool(c: PoolParams, x: Float32Array, planes: number, h: number, w: number, oh: number, ow: number): Float32Array {
  const out = new Float32Array(planes * oh * ow);
  for (let oy = 0; oy < oh; oy++) {
    let y0 = oy * c.stride[0] - c.padding[0];
    let y1 = Math.min(y0 + c.kernel[0], h + c.padding[0]);
    const padH = y1 - y0;
    y0 = Math.max(y0, 0);
    y1 = Math.min(y1, h);
    for (let ox = 0; ox < ow; ox++) {
      let x0 = ox * c.stride[1] - c.padding[1];
      let x1 = Math.min(x0 + c.kernel[1], w + c.padding[1]);
      const padded = padH * (x1 - x0);
      x0 = Math.max(x0, 0);
      x1 = Math.min(x1, w);
      const inside = Math.max(0, y1 - y0) * Math.max(0, x1 - x0);
      const divisor = c.divisorOverride ?? (c.countIncludePad ? padded : inside);
      for (let pl = 0; pl < planes; pl++) {
        let sum = 0;
        for (let iy = y0; iy < y1; iy++) for (let ix = x0; ix < x1; ix++) sum += x[(pl * h + iy) * w + ix]!;
        out[(pl * oh + oy) * ow + ox] = inside === 0 ? 0 : sum / divisor;
      }
    }
  }
  return out;
}

function poolOp(types: string[], kind: 'max' | 'avg'): OpDef {
  return {
    types,
    bind(node) {
      const params = parsePoolParams(node, kind);
      return {
        infer: (inputs) => inferPool(node, params, inputs),
        macs: noMacs,
        reference(inputs) {
          const [out] = inferPool(node, params, inputs);
          const x = inputs[0]!;
          const [h, w] = x.shape.slice(-2) as [number, number];
          const [oh, ow] = out!.shape.slice(-2) as [number, number];
          const planes = x.size / (h * w);
          const pool = kind === 'max' ? maxPool : avgPool;
          return [Tensor.f32(out!.shape, pool(params, x.f32, planes, h, w, oh, ow))];
        },
      };
    },
  };
}

export const maxPool2d = poolOp(['nn.MaxPool2d', 'F.max_pool2d'], 'max');
export const avgPool2d = poolOp(['nn.AvgPool2d', 'F.avg_pool2d'], 'avg');
