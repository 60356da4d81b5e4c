// Where each value of a graph lives in a frame's slot, and in which layout.
//
// Rank-4 float values (N,C,H,W) are stored NHWC: a pixel's channels are contiguous, which is what the
// GEMM-based convolutions, depthwise convolutions and pooling kernels want (kernels.md §1.3). `pixelStride`
// (floats from one pixel to the next) is C, or more when the value is a channel slice of a wider tensor.
// Everything else is stored plain: row-major in its logical shape.
//
//   NHWC element (n, c, h, w) of a view at byte offset o:  o + 4 * (((n*H + h)*W + w) * pixelStride + c)

import { numel, type Shape } from '../../tensor/shape.ts';

export type Layout = 'nhwc' | 'plain';

/** A tensor's place in a slot: logical (PyTorch) shape, storage layout, byte offset from the slot base. */
export interface TensorView {
  readonly offset: number;
  readonly shape: Shape;
  readonly layout: Layout;
  /** NHWC only: floats between consecutive pixels (>= channels). */
  readonly pixelStride: number;
}

export const layoutFor = (shape: Shape): Layout => (shape.length === 4 ? 'nhwc' : 'plain');

/** Floats a view spans from its first to its last element. */
export function viewFloats(v: TensorView): number {
  if (v.layout === 'plain') return numel(v.shape);
  const [n, c, h, w] = v.shape as [number, number, number, number];
  return n * h * w === 0 ? 0 : (n * h * w - 1) * v.pixelStride + c;
}

/** Logical NCHW shape → storage NHWC shape. */
export const nhwcShape = (s: Shape): number[] => [s[0]!, s[2]!, s[3]!, s[1]!];
