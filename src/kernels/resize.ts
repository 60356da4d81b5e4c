// Glue of the NHWC resize kernels (layout RS_* in abi.ts): PyTorch's source-index rules
// (aten/src/ATen/native/UpSample.h, as src/ops/upsample.ts implements them) turned into the index tables
// the kernels gather through, and the parameter block. Tables depend only on the sizes, so one copy
// serves every slot.
//   nearest:      i32 per output position: the source index
//   bilinear:     16 bytes per output position: i0 i32, i1 i32, w0 f32, w1 f32 (out = w0*x[i0] + w1*x[i1])

import { RS_C, RS_H, RS_OH, RS_OW, RS_PARAMS_BYTES, RS_W, RS_X, RS_XS, RS_XTAB, RS_Y, RS_YS, RS_YTAB } from './abi.ts';
import { blockViews, CallCheck } from './eltwise-regions.ts';
import type { NhwcImages } from './pool.ts';
import type { SharedMemory } from './wasm.ts';
import { linearTaps, nearestIndex, sourceCoordinates } from '../ops/resize-rules.ts';

export type ResizeKernelMode = 'nearest' | 'nearest-exact' | 'bilinear';

/** How one dim is resized: `scaleFactor` as given to PyTorch (used as given), or undefined (in / out). */
export interface ResizeDim {
  readonly mode: ResizeKernelMode;
  readonly inSize: number;
  readonly outSize: number;
  readonly scaleFactor: number | undefined;
  /** Bilinear only. */
  readonly alignCorners: boolean;
}

/** Bytes per table entry. */
export const resizeEntryBytes = (mode: ResizeKernelMode): number => (mode === 'bilinear' ? 16 : 4);

/** The table of one dim, as the kernels read it (the rules themselves: ops/resize-rules.ts). */
export function resizeTable(d: ResizeDim): ArrayBuffer {
  const table = new ArrayBuffer(d.outSize * resizeEntryBytes(d.mode));
  if (d.mode !== 'bilinear') {
    new Int32Array(table).set(nearestIndex(d));
    return table;
  }
  const i32 = new Int32Array(table);
  const f32 = new Float32Array(table);
  linearTaps(sourceCoordinates(d), d.inSize).forEach(([i0, i1, l], o) => {
    i32[4 * o] = i0;
    i32[4 * o + 1] = i1;
    f32[4 * o + 2] = 1 - l;
    f32[4 * o + 3] = l;
  });
  return table;
}

export type ResizeKernel = 'f32_resize_nearest_nhwc' | 'f32_resize_bilinear_nhwc';

export const resizeKernel = (mode: ResizeKernelMode): ResizeKernel => (mode === 'bilinear' ? 'f32_resize_bilinear_nhwc' : 'f32_resize_nearest_nhwc');

export interface ResizeCall {
  readonly mode: ResizeKernelMode;
  readonly x: NhwcImages;
  readonly y: { readonly at: number; readonly pixelStride: number; readonly oh: number; readonly ow: number };
  /** Byte offsets of the row (oh entries) and column (ow entries) tables, already written. */
  readonly ytab: number;
  readonly xtab: number;
}

/**
 * Validates the call, including every table index (the kernels gather through them unchecked), and
 * writes the block at `at` (RS_PARAMS_BYTES, 16-byte aligned). Work units: x.n * oh output rows.
 */
export function writeResizeParams(memory: SharedMemory, at: number, call: ResizeCall): void {
  const { x, y } = call;
  const check = new CallCheck(`${call.mode} resize of ${x.n}x${x.c}x${x.h}x${x.w} to ${y.oh}x${y.ow}`, memory.buffer.byteLength);
  check.counts({ n: x.n, c: x.c, h: x.h, w: x.w, oh: y.oh, ow: y.ow });
  const input = { at: x.at, stride: x.pixelStride, rows: x.n * x.h * x.w, cols: x.c };
  const output = { at: y.at, stride: y.pixelStride, rows: x.n * y.oh * y.ow, cols: x.c };
  check.region('x', input);
  check.region('y', output);
  check.disjoint('y', output, 'x', input);
  const entry = resizeEntryBytes(call.mode);
  for (const [name, tab, count, size] of [['row table', call.ytab, y.oh, x.h], ['column table', call.xtab, y.ow, x.w]] as const) {
    check.block(name, tab, count * entry, 4);
    check.disjoint('y', output, name, { at: tab, rows: 1, cols: (count * entry) / 4, stride: 0 });
    const words = new Int32Array(memory.buffer, tab, (count * entry) / 4);
    const step = entry / 4;
    for (let i = 0; i < count; i++) {
      for (let k = 0; k < Math.min(step, 2); k++) {
        const index = words[i * step + k]!;
        if (!(index >= 0 && index < size)) check.fail(`${name} entry ${i} reads index ${index}, outside [0, ${size})`);
      }
    }
  }
  check.block('parameter block', at, RS_PARAMS_BYTES);
  const v = blockViews(memory, at, RS_PARAMS_BYTES);
  v.u32.fill(0);
  v.u32[RS_X / 4] = x.at;
  v.u32[RS_XS / 4] = x.pixelStride;
  v.u32[RS_Y / 4] = y.at;
  v.u32[RS_YS / 4] = y.pixelStride;
  v.u32[RS_C / 4] = x.c;
  v.u32[RS_H / 4] = x.h;
  v.u32[RS_W / 4] = x.w;
  v.u32[RS_OH / 4] = y.oh;
  v.u32[RS_OW / 4] = y.ow;
  v.u32[RS_YTAB / 4] = call.ytab;
  v.u32[RS_XTAB / 4] = call.xtab;
}
