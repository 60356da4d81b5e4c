// Elementwise kernels over rows (layouts ROW_* and BIN_* in ../abi.ts):
//   f32_unary_rows   y = act(x), one copy of the loops per activation (the op code is a constant inside)
//   f32_affine_rows  y = x * scale[c] + shift[c] (an unfused BatchNorm, folded at load)
//   f32_binary_rows  y = a op b, b broadcast per row group (per-channel NHWC operand) or splat (scalar)
// Contiguous rows run as one span; every span is a 4-vector (or 2-vector) main loop, a 1-vector loop and
// a tail of single lanes computed with the same vector code.
import {
  ACT_HARDSIGMOID, ACT_HARDSWISH, ACT_LEAKY_RELU, ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU,
  BIN_A, BIN_ADD, BIN_AS, BIN_B, BIN_BG, BIN_BS, BIN_C, BIN_DIV, BIN_G, BIN_MAX, BIN_MIN, BIN_MUL, BIN_OP,
  BIN_RDIV, BIN_RSUB, BIN_SPLAT, BIN_SUB, BIN_Y, BIN_YS,
  ROW_ALPHA, ROW_C, ROW_OP, ROW_SCALE, ROW_SHIFT, ROW_X, ROW_XS, ROW_Y, ROW_YS,
  UNARY_ELU, UNARY_TANH,
} from '../abi';
import { copySpan } from './copy';
import { unary4 } from './eltwise-math';
import { madd } from './simd';

// ---- unary ------------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function unarySpan(x: usize, y: usize, n: i32, op: i32, alpha: v128): void {
  for (; n >= 8; n -= 8) {
    const a = unary4(v128.load(x), op, alpha);
    const b = unary4(v128.load(x, 16), op, alpha);
    v128.store(y, a);
    v128.store(y, b, 16);
    x += 32;
    y += 32;
  }
  for (; n >= 4; n -= 4) {
    v128.store(y, unary4(v128.load(x), op, alpha));
    x += 16;
    y += 16;
  }
  for (; n > 0; n--) {
    v128.store32_lane(y, unary4(v128.load32_zero(x), op, alpha), 0);
    x += 4;
    y += 4;
  }
}

// @ts-ignore: decorator
@inline function unaryRows(p: usize, r0: i32, r1: i32, op: i32): void {
  const c = load<i32>(p, ROW_C);
  const xs = <usize>load<u32>(p, ROW_XS) << 2;
  const ys = <usize>load<u32>(p, ROW_YS) << 2;
  let x = <usize>load<u32>(p, ROW_X) + <usize>r0 * xs;
  let y = <usize>load<u32>(p, ROW_Y) + <usize>r0 * ys;
  const alpha = v128.load32_splat(p, ROW_ALPHA);
  if (xs == <usize>c << 2 && ys == xs) {
    unarySpan(x, y, (r1 - r0) * c, op, alpha);
    return;
  }
  for (let r = r0; r < r1; r++) {
    unarySpan(x, y, c, op, alpha);
    x += xs;
    y += ys;
  }
}

function unaryRelu(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_RELU); }
function unaryRelu6(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_RELU6); }
function unarySigmoid(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_SIGMOID); }
function unarySilu(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_SILU); }
function unaryHardswish(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_HARDSWISH); }
function unaryHardsigmoid(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_HARDSIGMOID); }
function unaryLeakyRelu(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, ACT_LEAKY_RELU); }
function unaryTanh(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, UNARY_TANH); }
function unaryElu(p: usize, r0: i32, r1: i32): void { unaryRows(p, r0, r1, UNARY_ELU); }

/** Rows [r0, r1): y = op(x) with the ROW_OP code (ACT_NONE copies). */
export function f32_unary_rows(p: usize, r0: i32, r1: i32): void {
  switch (load<i32>(p, ROW_OP)) {
    case ACT_RELU: unaryRelu(p, r0, r1); break;
    case ACT_RELU6: unaryRelu6(p, r0, r1); break;
    case ACT_SIGMOID: unarySigmoid(p, r0, r1); break;
    case ACT_SILU: unarySilu(p, r0, r1); break;
    case ACT_HARDSWISH: unaryHardswish(p, r0, r1); break;
    case ACT_HARDSIGMOID: unaryHardsigmoid(p, r0, r1); break;
    case ACT_LEAKY_RELU: unaryLeakyRelu(p, r0, r1); break;
    case UNARY_TANH: unaryTanh(p, r0, r1); break;
    case UNARY_ELU: unaryElu(p, r0, r1); break;
    default: {
      const c = load<i32>(p, ROW_C);
      const xs = <usize>load<u32>(p, ROW_XS) << 2;
      const ys = <usize>load<u32>(p, ROW_YS) << 2;
      let x = <usize>load<u32>(p, ROW_X) + <usize>r0 * xs;
      let y = <usize>load<u32>(p, ROW_Y) + <usize>r0 * ys;
      for (let r = r0; r < r1; r++) {
        copySpan(y, x, c);
        x += xs;
        y += ys;
      }
    }
  }
}

// ---- channel affine -----------------------------------------------------------------------------------

/** Rows [r0, r1): y[r, c] = x[r, c] * scale[c] + shift[c]. */
export function f32_affine_rows(p: usize, r0: i32, r1: i32): void {
  const c = load<i32>(p, ROW_C);
  const xs = <usize>load<u32>(p, ROW_XS) << 2;
  const ys = <usize>load<u32>(p, ROW_YS) << 2;
  const scale = <usize>load<u32>(p, ROW_SCALE);
  const shift = <usize>load<u32>(p, ROW_SHIFT);
  let xr = <usize>load<u32>(p, ROW_X) + <usize>r0 * xs;
  let yr = <usize>load<u32>(p, ROW_Y) + <usize>r0 * ys;
  for (let r = r0; r < r1; r++) {
    let x = xr, y = yr, s = scale, b = shift, n = c;
    for (; n >= 8; n -= 8) {
      const v0 = madd(v128.load(x), v128.load(s), v128.load(b));
      const v1 = madd(v128.load(x, 16), v128.load(s, 16), v128.load(b, 16));
      v128.store(y, v0);
      v128.store(y, v1, 16);
      x += 32; y += 32; s += 32; b += 32;
    }
    for (; n >= 4; n -= 4) {
      v128.store(y, madd(v128.load(x), v128.load(s), v128.load(b)));
      x += 16; y += 16; s += 16; b += 16;
    }
    for (; n > 0; n--) {
      v128.store32_lane(y, madd(v128.load32_zero(x), v128.load32_zero(s), v128.load32_zero(b)), 0);
      x += 4; y += 4; s += 4; b += 4;
    }
    xr += xs;
    yr += ys;
  }
}

// ---- binary -----------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline function binop(a: v128, b: v128, op: i32): v128 {
  if (op == BIN_ADD) return f32x4.add(a, b);
  if (op == BIN_SUB) return f32x4.sub(a, b);
  if (op == BIN_MUL) return f32x4.mul(a, b);
  if (op == BIN_DIV) return f32x4.div(a, b);
  // f32x4.max/min, not pmax/pmin: NaN wins and max(-0, +0) = +0, as Math.max in the reference.
  if (op == BIN_MAX) return f32x4.max(a, b);
  if (op == BIN_MIN) return f32x4.min(a, b);
  if (op == BIN_RSUB) return f32x4.sub(b, a);
  return f32x4.div(b, a);
}

/** n floats: y = a op b, b read alongside a. */
// @ts-ignore: decorator
@inline function binarySpan(a: usize, b: usize, y: usize, n: i32, op: i32): void {
  for (; n >= 16; n -= 16) {
    const v0 = binop(v128.load(a), v128.load(b), op);
    const v1 = binop(v128.load(a, 16), v128.load(b, 16), op);
    const v2 = binop(v128.load(a, 32), v128.load(b, 32), op);
    const v3 = binop(v128.load(a, 48), v128.load(b, 48), op);
    v128.store(y, v0);
    v128.store(y, v1, 16);
    v128.store(y, v2, 32);
    v128.store(y, v3, 48);
    a += 64; b += 64; y += 64;
  }
  for (; n >= 4; n -= 4) {
    v128.store(y, binop(v128.load(a), v128.load(b), op));
    a += 16; b += 16; y += 16;
  }
  for (; n > 0; n--) {
    store<f32>(y, f32x4.extract_lane(binop(v128.load32_splat(a), v128.load32_splat(b), op), 0));
    a += 4; b += 4; y += 4;
  }
}

/** n floats: y = a op s, s one value in every lane. */
// @ts-ignore: decorator
@inline function binarySplatSpan(a: usize, s: v128, y: usize, n: i32, op: i32): void {
  for (; n >= 16; n -= 16) {
    const v0 = binop(v128.load(a), s, op);
    const v1 = binop(v128.load(a, 16), s, op);
    const v2 = binop(v128.load(a, 32), s, op);
    const v3 = binop(v128.load(a, 48), s, op);
    v128.store(y, v0);
    v128.store(y, v1, 16);
    v128.store(y, v2, 32);
    v128.store(y, v3, 48);
    a += 64; y += 64;
  }
  for (; n >= 4; n -= 4) {
    v128.store(y, binop(v128.load(a), s, op));
    a += 16; y += 16;
  }
  for (; n > 0; n--) {
    store<f32>(y, f32x4.extract_lane(binop(v128.load32_splat(a), s, op), 0));
    a += 4; y += 4;
  }
}

// @ts-ignore: decorator
@inline function binaryRows(p: usize, r0: i32, r1: i32, op: i32): void {
  const c = load<i32>(p, BIN_C);
  const aStride = <usize>load<u32>(p, BIN_AS) << 2;
  const ys = <usize>load<u32>(p, BIN_YS) << 2;
  const bs = <usize>load<u32>(p, BIN_BS) << 2;
  const bg = <usize>load<u32>(p, BIN_BG) << 2;
  const g = load<i32>(p, BIN_G);
  const splat = load<i32>(p, BIN_SPLAT) != 0;
  const b0 = <usize>load<u32>(p, BIN_B);
  let a = <usize>load<u32>(p, BIN_A) + <usize>r0 * aStride;
  let y = <usize>load<u32>(p, BIN_Y) + <usize>r0 * ys;
  const row = <usize>c << 2;
  if (aStride == row && ys == row) {
    // Contiguous A and Y, and B either one scalar or as contiguous as A: one span.
    if (splat && bs == 0 && bg == 0) {
      binarySplatSpan(a, v128.load32_splat(b0), y, (r1 - r0) * c, op);
      return;
    }
    if (!splat && bs == row && bg == <usize>g * row) {
      binarySpan(a, b0 + <usize>r0 * row, y, (r1 - r0) * c, op);
      return;
    }
  }
  let group = r0 / g;
  let inGroup = r0 - group * g;
  let b = b0 + <usize>group * bg + <usize>inGroup * bs;
  for (let r = r0; r < r1; r++) {
    if (splat) binarySplatSpan(a, v128.load32_splat(b), y, c, op);
    else binarySpan(a, b, y, c, op);
    a += aStride;
    y += ys;
    if (++inGroup == g) {
      inGroup = 0;
      group++;
      b = b0 + <usize>group * bg;
    } else {
      b += bs;
    }
  }
}

function binaryAdd(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_ADD); }
function binarySub(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_SUB); }
function binaryMul(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_MUL); }
function binaryDiv(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_DIV); }
function binaryMax(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_MAX); }
function binaryMin(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_MIN); }
function binaryRsub(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_RSUB); }
function binaryRdiv(p: usize, r0: i32, r1: i32): void { binaryRows(p, r0, r1, BIN_RDIV); }

/** Rows [r0, r1) of the binary block at p. */
export function f32_binary_rows(p: usize, r0: i32, r1: i32): void {
  switch (load<i32>(p, BIN_OP)) {
    case BIN_ADD: binaryAdd(p, r0, r1); break;
    case BIN_SUB: binarySub(p, r0, r1); break;
    case BIN_MUL: binaryMul(p, r0, r1); break;
    case BIN_DIV: binaryDiv(p, r0, r1); break;
    case BIN_MAX: binaryMax(p, r0, r1); break;
    case BIN_MIN: binaryMin(p, r0, r1); break;
    case BIN_RSUB: binaryRsub(p, r0, r1); break;
    default: binaryRdiv(p, r0, r1);
  }
}
