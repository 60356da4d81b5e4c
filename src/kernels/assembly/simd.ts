// Helpers shared by every kernel. One source gives both builds: asc defines ASC_FEATURE_RELAXED_SIMD
// from --enable, and the untaken branch of a constant `if` is dropped, so the plain build holds no
// relaxed opcode (it would not validate on Node 20 without --experimental-wasm-relaxed-simd).

/** a * b + c: one vfmadd231ps in the relaxed build, vmulps + vaddps (two roundings) in the plain one. */
// @ts-ignore: decorator
@inline export function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  else return f32x4.add(f32x4.mul(a, b), c);
}

/**
 * Stores lanes [0, n) of the 8 floats v0:v1 at p, n in 1..7 (the N remainder of a packed panel):
 * 4 lanes, then 2 (store64_lane), then 1 (store32_lane), shifting the rest down in between.
 */
// @ts-ignore: decorator
@inline export function storePartial8(p: usize, v0: v128, v1: v128, n: i32): void {
  let v = v0;
  if (n & 4) {
    v128.store(p, v0);
    v = v1;
    p += 16;
  }
  if (n & 2) {
    v128.store64_lane(p, v, 0);
    v = f32x4.shuffle(v, v, 2, 3, 2, 3);
    p += 8;
  }
  if (n & 1) v128.store32_lane(p, v, 0);
}

// convolution kernels
/**
 * Lanes [0, n) of the 4 floats at p, zeros above (n <= 0: all zeros; n >= 4: a full load). Reads only
 * the n floats, so a tensor's last channels can be loaded without touching memory past its end.
 */
// @ts-ignore: decorator
@inline export function loadPartial4(p: usize, n: i32): v128 {
  if (n >= 4) return v128.load(p);
  if (n <= 0) return f32x4.splat(0.0);
  let v = n & 2 ? v128.load64_zero(p) : v128.load32_zero(p);
  if (n == 3) v = v128.load32_lane(p + 8, v, 2);
  return v;
}

/** Stores lanes [0, n) of v at p (n >= 4: all four), touching no float past them. */
// @ts-ignore: decorator
@inline export function storePartial4(p: usize, v: v128, n: i32): void {
  if (n >= 4) {
    v128.store(p, v);
    return;
  }
  if (n & 2) {
    v128.store64_lane(p, v, 0);
    v = f32x4.shuffle(v, v, 2, 3, 2, 3);
    p += 8;
  }
  if (n & 1) v128.store32_lane(p, v, 0);
}
