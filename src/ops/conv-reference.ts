// Direct convolutions, the oracle the SIMD kernels are held to: every output element is a sum of
// in/groups x kh x kw products accumulated in double and rounded once to float32. O(MACs), no im2col.

import { Tensor } from '../tensor/tensor.ts';
import { tapIndex } from './border.ts';
import { convOutputSize, convTransposeOutputSize, type ConvParams } from './conv-params.ts';

/** (N,C,H,W), or unbatched (C,H,W) seen as N = 1. */
function dims4(x: Tensor): [number, number, number, number] {
  const [c, h, w] = x.shape.slice(-3) as [number, number, number];
  return [x.rank === 4 ? x.shape[0]! : 1, c, h, w];
}

/**
 * nn.Conv2d. x (N,Cin,H,W), weight (Cout, Cin/groups, kh, kw), bias (Cout) → (N,Cout,OH,OW).
 * Output channel oc belongs to group floor(oc / (Cout/groups)) and reads that group's Cin/groups inputs.
 */
export function conv2dReference(c: ConvParams, x: Tensor, weight: Float32Array, bias: Float32Array | undefined): Tensor {
  const [n, ci, h, w] = dims4(x);
  const [kh, kw] = c.kernel;
  const oh = convOutputSize(h, kh, c.stride[0], c.dilation[0], c.padBegin[0], c.padEnd[0]);
  const ow = convOutputSize(w, kw, c.stride[1], c.dilation[1], c.padBegin[1], c.padEnd[1]);
  const mode = c.paddingMode === 'zeros' ? 'constant' : c.paddingMode;
  // rows[ky * oh + oy]: the input row tap ky of output row oy reads (-1: a padded zero).
  const rows = tapIndex(h, oh, kh, c.stride[0], c.dilation[0], c.padBegin[0], mode);
  const cols = tapIndex(w, ow, kw, c.stride[1], c.dilation[1], c.padBegin[1], mode);
  const co = c.outChannels;
  const icg = ci / c.groups;
  const ocg = co / c.groups;
  const xd = x.f32;
  const out = new Float32Array(n * co * oh * ow);
  const acc = new Float64Array(oh * ow); // one output plane
  for (let b = 0; b < n; b++) {
    for (let oc = 0; oc < co; oc++) {
      acc.fill(bias ? bias[oc]! : 0);
      const g = Math.floor(oc / ocg);
      for (let i = 0; i < icg; i++) {
        const plane = (b * ci + g * icg + i) * h * w;
        for (let ky = 0; ky < kh; ky++) {
          for (let kx = 0; kx < kw; kx++) {
            const wv = weight[((oc * icg + i) * kh + ky) * kw + kx]!;
            for (let oy = 0; oy < oh; oy++) {
              const iy = rows[ky * oh + oy]!;
              if (iy < 0) continue;
              const row = plane + iy * w;
              for (let ox = 0; ox < ow; ox++) {
                const ix = cols[kx * ow + ox]!;
                if (ix >= 0) acc[oy * ow + ox] += wv * xd[row + ix]!;
              }
            }
          }
        }
      }
      out.set(acc, (b * co + oc) * oh * ow);
    }
  }
  return Tensor.f32(x.rank === 4 ? [n, co, oh, ow] : [co, oh, ow], out);
}

/**
 * nn.ConvTranspose2d, as the scatter that defines it: input (iy, ix) of channel ic adds
 * x * weight[ic, oc % (Cout/groups), ky, kx] to output (iy*sh - ph + ky*dh, ix*sw - pw + kx*dw).
 * weight (Cin, Cout/groups, kh, kw); output_padding only grows the output (those cells get bias and
 * whatever taps land there).
 */
export function convTranspose2dReference(c: ConvParams, x: Tensor, weight: Float32Array, bias: Float32Array | undefined): Tensor {
  const [n, ci, h, w] = dims4(x);
  const [kh, kw] = c.kernel;
  const [sh, sw] = c.stride;
  const [dh, dw] = c.dilation;
  const [ph, pw] = c.padBegin;
  const oh = convTransposeOutputSize(h, kh, sh, dh, ph, c.outputPadding[0]);
  const ow = convTransposeOutputSize(w, kw, sw, dw, pw, c.outputPadding[1]);
  const co = c.outChannels;
  const icg = ci / c.groups;
  const ocg = co / c.groups;
  const xd = x.f32;
  const acc = new Float64Array(n * co * oh * ow);
  for (let b = 0; b < n; b++) {
    for (let oc = 0; oc < co; oc++) acc.fill(bias ? bias[oc]! : 0, (b * co + oc) * oh * ow, (b * co + oc + 1) * oh * ow);
    for (let ic = 0; ic < ci; ic++) {
      const g = Math.floor(ic / icg);
      const plane = (b * ci + ic) * h * w;
      for (let o = 0; o < ocg; o++) {
        const outPlane = (b * co + g * ocg + o) * oh * ow;
        for (let ky = 0; ky < kh; ky++) {
          for (let kx = 0; kx < kw; kx++) {
            const wv = weight[((ic * ocg + o) * kh + ky) * kw + kx]!;
            for (let iy = 0; iy < h; iy++) {
              const oy = iy * sh - ph + ky * dh;
              if (oy < 0 || oy >= oh) continue;
              for (let ix = 0; ix < w; ix++) {
                const ox = ix * sw - pw + kx * dw;
                if (ox >= 0 && ox < ow) acc[outPlane + oy * ow + ox] += wv * xd[plane + iy * w + ix]!;
              }
            }
          }
        }
      }
    }
  }
  return Tensor.f32(x.rank === 4 ? [n, co, oh, ow] : [co, oh, ow], Float32Array.from(acc));
}
