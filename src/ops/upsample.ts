// Resizing: nn.Upsample, F.interpolate, F.upsample (nearest, nearest-exact, bilinear, bicubic), with
// PyTorch's source-coordinate rules (aten/src/ATen/native/UpSample.h), including its float32 index math
// for the nearest modes, where a rounding difference would pick another pixel.

import { Tensor } from '../tensor/tensor.ts';
import { noMacs, type OpDef } from './op.ts';
import { inferResize, parseResizeParams, type ResizeParams } from './upsample-params.ts';
import { linearTaps, nearestIndex, sourceCoordinates, type ResizeAxis } from './resize-rules.ts';

/** One axis of a node's resize, as the index rules take it. */
function axis(r: ResizeParams, dim: 0 | 1, inSize: number, outSize: number): ResizeAxis {
  const scaleFactor = r.scale && !r.recomputeScale ? r.scale[dim] : undefined;
  return { mode: r.mode, inSize, outSize, scaleFactor, alignCorners: r.alignCorners };
}

/** Keys' cubic convolution weights with PyTorch's A = -0.75, for taps floor(x)-1 .. floor(x)+2. */
function cubicWeights(t: number): [number, number, number, number] {
  const A = -0.75;
  const near = (x: number) => ((A + 2) * x - (A + 3)) * x * x + 1;
  const far = (x: number) => ((A * x - 5 * A) * x + 8 * A) * x - 4 * A;
  return [far(t + 1), near(t), near(1 - t), far(2 - t)];
}

/** Cubic taps along one dim: 4 clamped indices and their weights per output position. */
function cubicTaps(coords: Float64Array, inSize: number): Array<{ index: number[]; weight: number[] }> {
  return Array.from(coords, (real) => {
    const i = Math.min(Math.floor(real), inSize - 1);
    const t = Math.min(Math.max(real - i, 0), 1);
    const clamp = (k: number) => Math.min(Math.max(k, 0), inSize - 1);
    return { index: [clamp(i - 1), clamp(i), clamp(i + 1), clamp(i + 2)], weight: cubicWeights(t) };
  });
}

/** x (planes, H, W) → (planes, OH, OW). */
function resize(r: ResizeParams, x: Float32Array, planes: number, h: number, w: number, oh: number, ow: number): Float32Array {
  const out = new Float32Array(planes * oh * ow);
  const at = (pl: number, y: number, xx: number) => x[(pl * h + y) * w + xx]!;
  if (r.mode === 'nearest' || r.mode === 'nearest-exact') {
    const ys = nearestIndex(axis(r, 0, h, oh));
    const xs = nearestIndex(axis(r, 1, w, ow));
    for (let pl = 0; pl < planes; pl++) {
      for (let oy = 0; oy < oh; oy++) for (let ox = 0; ox < ow; ox++) out[(pl * oh + oy) * ow + ox] = at(pl, ys[oy]!, xs[ox]!);
    }
  } else if (r.mode === 'bilinear') {
    const ys = linearTaps(sourceCoordinates(axis(r, 0, h, oh)), h);
    const xs = linearTaps(sourceCoordinates(axis(r, 1, w, ow)), w);
    for (let pl = 0; pl < planes; pl++) {
      for (let oy = 0; oy < oh; oy++) {
        const [y0, y1, ly] = ys[oy]!;
        for (let ox = 0; ox < ow; ox++) {
          const [x0, x1, lx] = xs[ox]!;
          const top = (1 - lx) * at(pl, y0, x0) + lx * at(pl, y0, x1);
          const bottom = (1 - lx) * at(pl, y1, x0) + lx * at(pl, y1, x1);
          out[(pl * oh + oy) * ow + ox] = (1 - ly) * top + ly * bottom;
        }
      }
    }
  } else {
    const ys = cubicTaps(sourceCoordinates(axis(r, 0, h, oh)), h);
    const xs = cubicTaps(sourceCoordinates(axis(r, 1, w, ow)), w);
    for (let pl = 0; pl < planes; pl++) {
      for (let oy = 0; oy < oh; oy++) {
        const ty = ys[oy]!;
        for (let ox = 0; ox < ow; ox++) {
          const tx = xs[ox]!;
          let sum = 0;
          for (let a = 0; a < 4; a++) {
            let row = 0;
            for (let b = 0; b < 4; b++) row += tx.weight[b]! * at(pl, ty.index[a]!, tx.index[b]!);
            sum += ty.weight[a]! * row;
          }
          out[(pl * oh + oy) * ow + ox] = sum;
        }
      }
    }
  }
  return out;
}

export const upsample: OpDef = {
  types: ['nn.Upsample', 'F.interpolate', 'F.upsample', 'nn.UpsamplingNearest2d', 'nn.UpsamplingBilinear2d'],
  bind(node) {
    const params = parseResizeParams(node);
    return {
      infer: (inputs) => inferResize(node, params, inputs),
      macs: noMacs,
      reference(inputs) {
        const [out] = inferResize(node, params, inputs);
        const x = inputs[0]!;
        const [n, c, h, w] = x.shape as [number, number, number, number];
        const [, , oh, ow] = out!.shape as [number, number, number, number];
        return [Tensor.f32(out!.shape, resize(params, x.f32, n * c, h, w, oh, ow))];
      },
    };
  },
};
