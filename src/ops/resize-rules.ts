// PyTorch's source-index rules for resizing one axis (aten/src/ATen/native/UpSample.h), in one place:
// the reference (ops/upsample.ts) and the kernels' index tables (kernels/resize.ts) both use them.

import type { ResizeMode } from './upsample-params.ts';

export interface ResizeAxis {
  readonly mode: ResizeMode;
  readonly inSize: number;
  readonly outSize: number;
  /** The scale factor as given to PyTorch (used as given), or undefined (then in / out). */
  readonly scaleFactor: number | undefined;
  readonly alignCorners: boolean;
}

/** compute_scales_value: 1/scale_factor when one was given, else in/out. */
function givenScale(a: ResizeAxis): number {
  return a.scaleFactor !== undefined && a.scaleFactor > 0 ? 1 / a.scaleFactor : a.inSize / a.outSize;
}

/**
 * Source index of each output position for `nearest` (floor(dst*scale)) and `nearest-exact`
 * (floor((dst+0.5)*scale)), computed in float32 as PyTorch does: a double would pick other pixels.
 */
export function nearestIndex(a: ResizeAxis): Int32Array {
  const index = new Int32Array(a.outSize);
  const scale = Math.fround(givenScale(a));
  for (let o = 0; o < a.outSize; o++) {
    if (a.mode === 'nearest-exact') index[o] = Math.min(Math.floor(Math.fround((o + 0.5) * scale)), a.inSize - 1);
    else if (a.outSize === a.inSize) index[o] = o;
    else if (a.outSize === 2 * a.inSize) index[o] = o >> 1;
    else index[o] = Math.min(Math.floor(Math.fround(o * scale)), a.inSize - 1);
  }
  return index;
}

/** area_pixel_compute_source_index: the real source coordinate of each output position. */
export function sourceCoordinates(a: ResizeAxis): Float64Array {
  const coords = new Float64Array(a.outSize);
  const cubic = a.mode === 'bicubic';
  const scale = a.alignCorners ? (a.outSize > 1 ? (a.inSize - 1) / (a.outSize - 1) : 0) : givenScale(a);
  for (let o = 0; o < a.outSize; o++) {
    if (a.alignCorners) coords[o] = o * scale;
    else coords[o] = cubic ? scale * (o + 0.5) - 0.5 : Math.max(scale * (o + 0.5) - 0.5, 0);
  }
  return coords;
}

/** Linear taps along one axis: out = (1 - l) * x[i0] + l * x[i1], indices clamped to the input. */
export function linearTaps(coords: Float64Array, inSize: number): Array<[number, number, number]> {
  return Array.from(coords, (real) => {
    const i0 = Math.min(Math.floor(real), inSize - 1);
    const l = Math.min(Math.max(real - i0, 0), 1);
    return [i0, Math.min(i0 + 1, inSize - 1), l];
  });
}
