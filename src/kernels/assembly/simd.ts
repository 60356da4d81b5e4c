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
