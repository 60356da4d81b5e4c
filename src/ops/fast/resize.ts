// nn.Upsample / F.interpolate / F.upsample (nearest, nearest-exact, bilinear) on the NHWC resize kernels.
// The index tables (kernels/resize.ts, PyTorch's rules) are built once per node; bicubic stays on the
// fallback.

import type { Node } from '../../graph/graph.ts';
import { RS_PARAMS_BYTES } from '../../kernels/abi.ts';
import { resizeEntryBytes, resizeKernel, resizeTable, writeResizeParams, type ResizeDim, type ResizeKernelMode } from '../../kernels/resize.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { parseResizeParams } from '../upsample-params.ts';
import { f32Only, rangeStep } from './eltwise-range.ts';

export function lowerResize(node: Node): Lowered | undefined {
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!x || !y || node.inputs.length !== 1 || !f32Only(x, y) || x.shape!.length !== 4) return undefined;
  const r = parseResizeParams(node);
  if (r.mode === 'bicubic') return undefined;
  const mode: ResizeKernelMode = r.mode;
  const [n, c, h, w] = x.shape as [number, number, number, number];
  const [, , oh, ow] = y.shape as [number, number, number, number];
  const dim = (i: 0 | 1, inSize: number, outSize: number): ResizeDim => ({
    mode, inSize, outSize, alignCorners: r.alignCorners, scaleFactor: r.scale && !r.recomputeScale ? r.scale[i] : undefined,
  });
  return {
    stridedViews: true,
    build(ctx) {
      const tables = [dim(0, h, oh), dim(1, w, ow)].map((d) => {
        const bytes = new Uint8Array(resizeTable(d));
        const at = ctx.arena.alloc(Math.max(bytes.length, 16), 16);
        new Uint8Array(ctx.arena.buffer, at, bytes.length).set(bytes);
        return at;
      });
      const xv = ctx.view(x);
      const yv = ctx.view(y);
      // Streamed bytes per output row (eltwise-range.ts): a copy per pixel, or 4 taps and 6 flops per float.
      const perUnit = ow * c * 4 * (mode === 'bilinear' ? 16 : 2) + ow * resizeEntryBytes(mode);
      return rangeStep(ctx, label(node), resizeKernel(mode), n * oh, perUnit, RS_PARAMS_BYTES, (at, base) =>
        writeResizeParams(ctx.arena.memory, at, {
          mode, x: { at: base + xv.offset, pixelStride: xv.pixelStride, n, c, h, w },
          y: { at: base + yv.offset, pixelStride: yv.pixelStride, oh, ow }, ytab: tables[0]!, xtab: tables[1]!,
        }));
    },
  };
}
