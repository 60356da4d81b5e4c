// Strided row copies (torch.cat into channel slices of an NHWC tensor, or blocks of a plain one), and the
// span copy the pooling and resize kernels share. Block layout: COPY_* in ../abi.ts.
import { COPY_COUNT, COPY_DOFF, COPY_ENTRIES, COPY_ENTRY_BYTES, COPY_LEN, COPY_SRC, COPY_SS, COPY_Y, COPY_YS } from '../abi';

// Spans at least this long go to memory.copy (V8 calls its memmove, which moves 32 bytes per instruction
// with AVX); shorter ones stay in the v128 loop, which has no call overhead.
// @ts-ignore: decorator
@inline const BULK_FLOATS = 1024;

/** n floats from src to dst (non-overlapping): 16 per step, then 4, then one at a time. */
// @ts-ignore: decorator
@inline export function copySpan(dst: usize, src: usize, n: i32): void {
  if (n >= BULK_FLOATS) {
    memory.copy(dst, src, <usize>n << 2);
    return;
  }
  for (; n >= 16; n -= 16) {
    const v0 = v128.load(src);
    const v1 = v128.load(src, 16);
    const v2 = v128.load(src, 32);
    const v3 = v128.load(src, 48);
    v128.store(dst, v0);
    v128.store(dst, v1, 16);
    v128.store(dst, v2, 32);
    v128.store(dst, v3, 48);
    src += 64;
    dst += 64;
  }
  for (; n >= 4; n -= 4) {
    v128.store(dst, v128.load(src));
    src += 16;
    dst += 16;
  }
  for (; n > 0; n--) {
    store<f32>(dst, load<f32>(src));
    src += 4;
    dst += 4;
  }
}

/** Rows [r0, r1) of every source of the copy block at p (sources one after another). */
export function f32_copy_rows(p: usize, r0: i32, r1: i32): void {
  const y = <usize>load<u32>(p, COPY_Y);
  const ys = <usize>load<u32>(p, COPY_YS) << 2;
  const count = load<i32>(p, COPY_COUNT);
  for (let i = 0; i < count; i++) {
    const e = p + COPY_ENTRIES + <usize>i * COPY_ENTRY_BYTES;
    const len = load<i32>(e, COPY_LEN);
    const ss = <usize>load<u32>(e, COPY_SS) << 2;
    let src = <usize>load<u32>(e, COPY_SRC) + <usize>r0 * ss;
    let dst = y + (<usize>load<u32>(e, COPY_DOFF) << 2) + <usize>r0 * ys;
    const rowBytes = <usize>len << 2;
    if (ss == rowBytes && ys == rowBytes) {
      // Both sides contiguous: the rows are one span.
      copySpan(dst, src, (r1 - r0) * len);
      continue;
    }
    for (let r = r0; r < r1; r++) {
      copySpan(dst, src, len);
      src += ss;
      dst += ys;
    }
  }
}
