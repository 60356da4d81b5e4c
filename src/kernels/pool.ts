// Glue of the NHWC pooling kernels (layout POOL_* in abi.ts): validates a call, writes its block, and
// says how many work units it has.
//   max / avg         f32_maxpool_nhwc, f32_avgpool_nhwc     unit = output row (n, oy)
//   adaptive max/avg  f32_adaptive_pool_nhwc                  unit = output row (n, oy)
//   global average    f32_global_avgpool_nhwc                 unit = (n, POOL_GLOBAL_BLOCK channels)

import {
  POOL_C, POOL_DH, POOL_DIV, POOL_DW, POOL_GLOBAL_BLOCK, POOL_H, POOL_KH, POOL_KW, POOL_MODE, POOL_MODE_AVG,
  POOL_MODE_AVG_PAD, POOL_MODE_MAX, POOL_OH, POOL_OW, POOL_PARAMS_BYTES, POOL_PH, POOL_PW, POOL_SH, POOL_SW,
  POOL_W, POOL_X, POOL_XS, POOL_Y, POOL_YS,
} from './abi.ts';
import { blockViews, CallCheck } from './eltwise-regions.ts';
import type { SharedMemory } from './wasm.ts';

/** An NHWC batch in the shared memory: pixel (n, y, x) at byte at + 4 * ((n*h + y)*w + x) * pixelStride. */
export interface NhwcImages {
  readonly at: number;
  readonly pixelStride: number;
  readonly n: number;
  readonly c: number;
  readonly h: number;
  readonly w: number;
}

export type PoolKernel = 'f32_maxpool_nhwc' | 'f32_avgpool_nhwc' | 'f32_adaptive_pool_nhwc' | 'f32_global_avgpool_nhwc';

export type PoolCall =
  | {
      readonly kind: 'max' | 'avg';
      readonly kernel: readonly [number, number];
      readonly stride: readonly [number, number];
      readonly padding: readonly [number, number];
      /** Max pool only (average pooling has none). */
      readonly dilation?: readonly [number, number];
      readonly countIncludePad?: boolean;
      readonly divisorOverride?: number;
    }
  | { readonly kind: 'adaptive-max' | 'adaptive-avg' }
  | { readonly kind: 'global-avg' };

export const POOL_KERNELS: Readonly<Record<PoolCall['kind'], PoolKernel>> = {
  max: 'f32_maxpool_nhwc',
  avg: 'f32_avgpool_nhwc',
  'adaptive-max': 'f32_adaptive_pool_nhwc',
  'adaptive-avg': 'f32_adaptive_pool_nhwc',
  'global-avg': 'f32_global_avgpool_nhwc',
};

/** Work units of a pooling call whose output is (x.n, x.c, oh, ow). */
export function poolUnits(kind: PoolCall['kind'], x: NhwcImages, oh: number): number {
  return kind === 'global-avg' ? x.n * Math.ceil(x.c / POOL_GLOBAL_BLOCK) : x.n * oh;
}

/**
 * Validates pooling `x` into `y` (output (x.n, x.c, oh, ow), pixel stride y.pixelStride) and writes the
 * block at `at` (POOL_PARAMS_BYTES, 16-byte aligned).
 */
export function writePoolParams(memory: SharedMemory, at: number, call: PoolCall, x: NhwcImages, y: { at: number; pixelStride: number; oh: number; ow: number }): void {
  const check = new CallCheck(`${call.kind} pool of ${x.n}x${x.c}x${x.h}x${x.w} to ${y.oh}x${y.ow}`, memory.buffer.byteLength);
  check.counts({ n: x.n, c: x.c, h: x.h, w: x.w, oh: y.oh, ow: y.ow });
  const input = { at: x.at, stride: x.pixelStride, rows: x.n * x.h * x.w, cols: x.c };
  const output = { at: y.at, stride: y.pixelStride, rows: x.n * y.oh * y.ow, cols: x.c };
  check.region('x', input);
  check.region('y', output);
  check.disjoint('y', output, 'x', input);
  if (call.kind === 'global-avg' && (y.oh !== 1 || y.ow !== 1)) check.fail('a global pool has a 1x1 output');
  if (call.kind === 'adaptive-max' || call.kind === 'adaptive-avg') {
    // Window i covers [floor(i*in/out), ceil((i+1)*in/out)): products must stay in int32 inside the kernel.
    if ((y.oh + 1) * x.h > 0x7fffffff || (y.ow + 1) * x.w > 0x7fffffff) check.fail('sizes too large');
  }
  let window = { kh: 1, kw: 1, sh: 1, sw: 1, ph: 0, pw: 0, dh: 1, dw: 1, mode: POOL_MODE_AVG, divisor: 0 };
  if (call.kind === 'max' || call.kind === 'avg') {
    const [kh, kw] = call.kernel;
    const [sh, sw] = call.stride;
    const [ph, pw] = call.padding;
    const [dh, dw] = call.dilation ?? [1, 1];
    check.counts({ 'kernel height': kh, 'kernel width': kw, 'stride height': sh, 'stride width': sw, 'dilation height': dh, 'dilation width': dw });
    check.counts({ 'padding height': ph, 'padding width': pw }, 0);
    if (call.kind === 'avg' && (dh !== 1 || dw !== 1)) check.fail('average pooling has no dilation');
    // The kernel computes window starts and ends in int32.
    if ((y.oh + 1) * sh + kh * dh + ph > 0x7fffffff || (y.ow + 1) * sw + kw * dw + pw > 0x7fffffff) check.fail('sizes too large');
    const divisor = call.kind === 'avg' ? call.divisorOverride ?? 0 : 0;
    if (!Number.isInteger(divisor) || Math.abs(divisor) > 0x7fffffff) check.fail(`divisor_override=${divisor} must be an int32`);
    const mode = call.kind === 'max' ? POOL_MODE_MAX : call.countIncludePad ?? true ? POOL_MODE_AVG_PAD : POOL_MODE_AVG;
    window = { kh, kw, sh, sw, ph, pw, dh, dw, mode, divisor };
  } else if (call.kind === 'adaptive-max') {
    window = { ...window, mode: POOL_MODE_MAX };
  }
  check.block('parameter block', at, POOL_PARAMS_BYTES);
  const v = blockViews(memory, at, POOL_PARAMS_BYTES);
  v.u32.fill(0);
  v.u32[POOL_X / 4] = x.at;
  v.u32[POOL_XS / 4] = x.pixelStride;
  v.u32[POOL_Y / 4] = y.at;
  v.u32[POOL_YS / 4] = y.pixelStride;
  v.u32[POOL_C / 4] = x.c;
  v.u32[POOL_H / 4] = x.h;
  v.u32[POOL_W / 4] = x.w;
  v.u32[POOL_OH / 4] = y.oh;
  v.u32[POOL_OW / 4] = y.ow;
  v.u32[POOL_KH / 4] = window.kh;
  v.u32[POOL_KW / 4] = window.kw;
  v.u32[POOL_SH / 4] = window.sh;
  v.u32[POOL_SW / 4] = window.sw;
  v.u32[POOL_PH / 4] = window.ph;
  v.u32[POOL_PW / 4] = window.pw;
  v.u32[POOL_DH / 4] = window.dh;
  v.u32[POOL_DW / 4] = window.dw;
  v.u32[POOL_MODE / 4] = window.mode;
  v.i32[POOL_DIV / 4] = window.divisor;
}
