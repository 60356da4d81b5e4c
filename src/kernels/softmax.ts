// Glue of f32_softmax_rows: softmax or log-softmax of each of `rows` rows of `c` floats (layout ROW_* in
// abi.ts). A row is the innermost storage dim: an NHWC pixel's channels, or a plain tensor's last dim.

import { ROW_C, ROW_OP, ROW_PARAMS_BYTES, ROW_X, ROW_XS, ROW_Y, ROW_YS, SOFTMAX_EXP, SOFTMAX_LOG } from './abi.ts';
import { blockViews, CallCheck } from './eltwise-regions.ts';
import type { Rows } from './eltwise.ts';
import type { SharedMemory } from './wasm.ts';

export interface SoftmaxCall {
  readonly x: Rows;
  readonly y: Rows;
  readonly rows: number;
  readonly c: number;
  readonly log: boolean;
}

/** Validates the call and writes its block at `at` (ROW_PARAMS_BYTES, 16-byte aligned). */
export function writeSoftmaxParams(memory: SharedMemory, at: number, call: SoftmaxCall): void {
  const check = new CallCheck(`${call.log ? 'log-softmax' : 'softmax'} over ${call.rows} rows of ${call.c}`, memory.buffer.byteLength);
  check.counts({ rows: call.rows, c: call.c });
  const x = { ...call.x, rows: call.rows, cols: call.c };
  const y = { ...call.y, rows: call.rows, cols: call.c };
  check.region('x', x);
  check.region('y', y);
  check.disjoint('y', y, 'x', x, true);
  check.block('parameter block', at, ROW_PARAMS_BYTES);
  const v = blockViews(memory, at, ROW_PARAMS_BYTES);
  v.u32.fill(0);
  v.u32[ROW_X / 4] = call.x.at;
  v.u32[ROW_XS / 4] = call.x.stride;
  v.u32[ROW_Y / 4] = call.y.at;
  v.u32[ROW_YS / 4] = call.y.stride;
  v.u32[ROW_C / 4] = call.c;
  v.u32[ROW_OP / 4] = call.log ? SOFTMAX_LOG : SOFTMAX_EXP;
}
