// Moving a tensor between PyTorch's NCHW order and a (possibly strided) NHWC region, a batch-row range
// at a time so the work can be split across workers. Used at a model's inputs and outputs and by the
// fallback runner that runs a reference op inside a worker.

/**
 * NCHW `src` (contiguous) → NHWC `dst` with pixel stride `stride`, for rows [row0, row1) of the N*H rows.
 * `dst` starts at element (0,0,0,0) of the NHWC region.
 */
export function nchwToNhwc(src: Float32Array, dst: Float32Array, n: number, c: number, h: number, w: number, stride: number, row0 = 0, row1 = n * h): void {
  const plane = h * w;
  for (let row = row0; row < row1; row++) {
    const b = Math.floor(row / h);
    const y = row - b * h;
    const srcBase = b * c * plane + y * w;
    let d = row * w * stride;
    for (let x = 0; x < w; x++, d += stride) {
      let s = srcBase + x;
      for (let ch = 0; ch < c; ch++, s += plane) dst[d + ch] = src[s]!;
    }
  }
}

/** NHWC `src` with pixel stride `stride` → NCHW `dst` (contiguous), rows [row0, row1) of the N*H rows. */
export function nhwcToNchw(src: Float32Array, dst: Float32Array, n: number, c: number, h: number, w: number, stride: number, row0 = 0, row1 = n * h): void {
  const plane = h * w;
  for (let row = row0; row < row1; row++) {
    const b = Math.floor(row / h);
    const y = row - b * h;
    const dstBase = b * c * plane + y * w;
    let s = row * w * stride;
    for (let x = 0; x < w; x++, s += stride) {
      let d = dstBase + x;
      for (let ch = 0; ch < c; ch++, d += plane) dst[d] = src[s + ch]!;
    }
  }
}
