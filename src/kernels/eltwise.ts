// Glue of the elementwise row kernels (f32_unary_rows, f32_affine_rows, f32_binary_rows): validates a
// call and writes its parameter block (layouts ROW_* and BIN_* in abi.ts). A call covers `rows` rows of
// `c` floats; the caller splits [0, rows) into tiles.

import {
  ACT_NONE, BIN_A, BIN_ADD, BIN_AS, BIN_B, BIN_BG, BIN_BS, BIN_C, BIN_CONST, BIN_DIV, BIN_G, BIN_MAX, BIN_MIN,
  BIN_MUL, BIN_OP, BIN_PARAMS_BYTES, BIN_RDIV, BIN_RSUB, BIN_SPLAT, BIN_SUB, BIN_Y, BIN_YS,
  ROW_ALPHA, ROW_C, ROW_OP, ROW_PARAMS_BYTES, ROW_SCALE, ROW_SHIFT, ROW_X, ROW_XS, ROW_Y, ROW_YS,
  UNARY_ELU, UNARY_TANH,
} from './abi.ts';
import { ACTIVATIONS, type Activation } from './activation.ts';
import { blockViews, CallCheck, type Region } from './eltwise-regions.ts';
import type { SharedMemory } from './wasm.ts';

/** Rows of floats in the shared memory: row r at byte `at + 4 * r * stride`. */
export interface Rows {
  readonly at: number;
  readonly stride: number;
}

// ---- unary ------------------------------------------------------------------------------------------

export const UNARY_OPS = { ...ACTIVATIONS, tanh: UNARY_TANH, elu: UNARY_ELU } as const;
export type UnaryOp = Activation | 'tanh' | 'elu';

export interface UnaryCall {
  readonly x: Rows;
  readonly y: Rows;
  readonly rows: number;
  readonly c: number;
  readonly op: UnaryOp;
  /** LeakyReLU slope, ELU alpha. */
  readonly alpha?: number;
}

const region = (r: Rows, rows: number, cols: number): Region => ({ at: r.at, stride: r.stride, rows, cols });

function writeRowBlock(memory: SharedMemory, at: number, x: Rows, y: Rows, c: number, fill: (v: ReturnType<typeof blockViews>) => void): void {
  const v = blockViews(memory, at, ROW_PARAMS_BYTES);
  v.u32.fill(0);
  v.u32[ROW_X / 4] = x.at;
  v.u32[ROW_XS / 4] = x.stride;
  v.u32[ROW_Y / 4] = y.at;
  v.u32[ROW_YS / 4] = y.stride;
  v.u32[ROW_C / 4] = c;
  fill(v);
}

/** Validates an activation over rows and writes its block at `at` (ROW_PARAMS_BYTES, 16-byte aligned). */
export function writeUnaryParams(memory: SharedMemory, at: number, call: UnaryCall): void {
  const check = new CallCheck(`unary ${call.op} over ${call.rows} rows of ${call.c}`, memory.buffer.byteLength);
  const code = (UNARY_OPS as Record<string, number>)[call.op];
  if (code === undefined) check.fail(`unknown op (expected one of ${Object.keys(UNARY_OPS).join(', ')})`);
  check.counts({ rows: call.rows, c: call.c });
  const x = region(call.x, call.rows, call.c);
  const y = region(call.y, call.rows, call.c);
  check.region('x', x);
  check.region('y', y);
  check.disjoint('y', y, 'x', x, true);
  const alpha = call.alpha ?? 0;
  if (!Number.isFinite(alpha)) check.fail(`alpha=${alpha} must be finite`);
  check.block('parameter block', at, ROW_PARAMS_BYTES);
  writeRowBlock(memory, at, call.x, call.y, call.c, (v) => {
    v.u32[ROW_OP / 4] = code ?? ACT_NONE;
    v.f32[ROW_ALPHA / 4] = alpha;
  });
}

// ---- channel affine -----------------------------------------------------------------------------------

export interface AffineCall {
  readonly x: Rows;
  readonly y: Rows;
  readonly rows: number;
  readonly c: number;
  /** Byte offsets of c floats each. */
  readonly scale: number;
  readonly shift: number;
}

/** Validates y[r, c] = x[r, c] * scale[c] + shift[c] and writes its block at `at`. */
export function writeAffineParams(memory: SharedMemory, at: number, call: AffineCall): void {
  const check = new CallCheck(`channel affine over ${call.rows} rows of ${call.c}`, memory.buffer.byteLength);
  check.counts({ rows: call.rows, c: call.c });
  const x = region(call.x, call.rows, call.c);
  const y = region(call.y, call.rows, call.c);
  check.region('x', x);
  check.region('y', y);
  check.region('scale', { at: call.scale, rows: 1, cols: call.c, stride: call.c });
  check.region('shift', { at: call.shift, rows: 1, cols: call.c, stride: call.c });
  check.disjoint('y', y, 'x', x, true);
  check.disjoint('y', y, 'scale', { at: call.scale, rows: 1, cols: call.c, stride: call.c });
  check.disjoint('y', y, 'shift', { at: call.shift, rows: 1, cols: call.c, stride: call.c });
  check.block('parameter block', at, ROW_PARAMS_BYTES);
  writeRowBlock(memory, at, call.x, call.y, call.c, (v) => {
    v.u32[ROW_SCALE / 4] = call.scale;
    v.u32[ROW_SHIFT / 4] = call.shift;
  });
}

// ---- binary -----------------------------------------------------------------------------------------

export const BINARY_OPS = {
  add: BIN_ADD, sub: BIN_SUB, mul: BIN_MUL, div: BIN_DIV, max: BIN_MAX, min: BIN_MIN, rsub: BIN_RSUB, rdiv: BIN_RDIV,
} as const;
export type BinaryOp = keyof typeof BINARY_OPS;

/**
 * The second operand of a binary call: rows of c floats (or one float per row when `splat`), row r at
 * at + 4 * ((r / group) * groupStride + (r % group) * stride); or a constant.
 */
export type BinaryOperand =
  | { readonly at: number; readonly stride: number; readonly group: number; readonly groupStride: number; readonly splat: boolean }
  | { readonly constant: number };

export interface BinaryCall {
  readonly a: Rows;
  readonly b: BinaryOperand;
  readonly y: Rows;
  readonly rows: number;
  readonly c: number;
  readonly op: BinaryOp;
}

/** Validates y = a op b and writes its block at `at` (BIN_PARAMS_BYTES, 16-byte aligned). */
export function writeBinaryParams(memory: SharedMemory, at: number, call: BinaryCall): void {
  const check = new CallCheck(`binary ${call.op} over ${call.rows} rows of ${call.c}`, memory.buffer.byteLength);
  const code = (BINARY_OPS as Record<string, number>)[call.op];
  if (code === undefined) check.fail(`unknown op (expected one of ${Object.keys(BINARY_OPS).join(', ')})`);
  check.counts({ rows: call.rows, c: call.c });
  const a = region(call.a, call.rows, call.c);
  const y = region(call.y, call.rows, call.c);
  check.region('a', a);
  check.region('y', y);
  check.disjoint('y', y, 'a', a, true);
  check.block('parameter block', at, BIN_PARAMS_BYTES);
  const b = 'constant' in call.b ? { at: at + BIN_CONST, stride: 0, group: call.rows, groupStride: 0, splat: true } : call.b;
  if (!('constant' in call.b)) {
    check.counts({ 'b group': b.group });
    check.counts({ 'b stride': b.stride, 'b group stride': b.groupStride }, 0);
    const cols = b.splat ? 1 : call.c;
    if (!b.splat && b.stride !== 0 && b.stride < call.c) check.fail(`b stride ${b.stride} is below its ${call.c} columns`);
    // B's extent: the last group's last row.
    const groups = Math.ceil(call.rows / b.group);
    const lastRow = Math.min(b.group, call.rows) - 1;
    const extent: Region = { at: b.at, rows: 1, cols: (groups - 1) * b.groupStride + lastRow * b.stride + cols, stride: 0 };
    check.region('b', extent, true);
    const sameAsY = !b.splat && b.at === y.at && b.stride === y.stride && b.groupStride === b.group * b.stride;
    if (!sameAsY) check.disjoint('y', y, 'b', extent);
  }
  const v = blockViews(memory, at, BIN_PARAMS_BYTES);
  v.u32.fill(0);
  v.u32[BIN_A / 4] = call.a.at;
  v.u32[BIN_AS / 4] = call.a.stride;
  v.u32[BIN_B / 4] = b.at;
  v.u32[BIN_BS / 4] = b.stride;
  v.u32[BIN_BG / 4] = b.groupStride;
  v.u32[BIN_G / 4] = b.group;
  v.u32[BIN_SPLAT / 4] = b.splat ? 1 : 0;
  v.u32[BIN_Y / 4] = call.y.at;
  v.u32[BIN_YS / 4] = call.y.stride;
  v.u32[BIN_C / 4] = call.c;
  v.u32[BIN_OP / 4] = code ?? BIN_ADD;
  if ('constant' in call.b) v.f32[BIN_CONST / 4] = call.b.constant;
}
