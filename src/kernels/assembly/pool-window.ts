// One output pixel of a pooling window, vectorised over channels: blocks of 16 channels (4 accumulators
// in registers while the window's taps stream past), then 4, then one channel at a time with the same
// vector code. The window is ny x nx taps from the pixel at `first`, tap rows `rowStep` bytes apart and
// tap columns `colStep` bytes apart (dilation and pixel strides folded in by the caller).
//
// Max: pmax(acc, v) = acc < v ? v : acc is one maxps but drops a NaN v, so NaN lanes are tracked in a
// mask (ne(v, v)) and OR-ed into the result at the end: the output is NaN wherever the window holds one,
// as in the reference (padded cells are never taps, so they cannot win; an empty window gives -inf).

// @ts-ignore: decorator
@inline export function maxWindow(first: usize, ny: i32, nx: i32, rowStep: usize, colStep: usize, y: usize, c: i32): void {
  const cb = <usize>c << 2;
  let ch: usize = 0;
  for (; ch + 64 <= cb; ch += 64) {
    let a0 = f32x4.splat(-Infinity), a1 = a0, a2 = a0, a3 = a0;
    let n0 = f32x4.splat(0.0), n1 = n0, n2 = n0, n3 = n0;
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let px = row;
      for (let i = 0; i < nx; i++) {
        const v0 = v128.load(px);
        const v1 = v128.load(px, 16);
        const v2 = v128.load(px, 32);
        const v3 = v128.load(px, 48);
        a0 = f32x4.pmax(a0, v0); n0 = v128.or(n0, f32x4.ne(v0, v0));
        a1 = f32x4.pmax(a1, v1); n1 = v128.or(n1, f32x4.ne(v1, v1));
        a2 = f32x4.pmax(a2, v2); n2 = v128.or(n2, f32x4.ne(v2, v2));
        a3 = f32x4.pmax(a3, v3); n3 = v128.or(n3, f32x4.ne(v3, v3));
        px += colStep;
      }
      row += rowStep;
    }
    v128.store(y + ch, v128.or(a0, n0));
    v128.store(y + ch, v128.or(a1, n1), 16);
    v128.store(y + ch, v128.or(a2, n2), 32);
    v128.store(y + ch, v128.or(a3, n3), 48);
  }
  for (; ch + 16 <= cb; ch += 16) {
    let a = f32x4.splat(-Infinity);
    let n = f32x4.splat(0.0);
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let px = row;
      for (let i = 0; i < nx; i++) {
        const v = v128.load(px);
        a = f32x4.pmax(a, v);
        n = v128.or(n, f32x4.ne(v, v));
        px += colStep;
      }
      row += rowStep;
    }
    v128.store(y + ch, v128.or(a, n));
  }
  for (; ch < cb; ch += 4) {
    let a = f32x4.splat(-Infinity);
    let n = f32x4.splat(0.0);
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let px = row;
      for (let i = 0; i < nx; i++) {
        const v = v128.load32_splat(px);
        a = f32x4.pmax(a, v);
        n = v128.or(n, f32x4.ne(v, v));
        px += colStep;
      }
      row += rowStep;
    }
    v128.store32_lane(y + ch, v128.or(a, n), 0);
  }
}

/**
 * Window sum / divisor (a splat). The taps of one window row are summed first and the rows then added,
 * so the rounding grows with kh + kw rather than kh * kw.
 */
// @ts-ignore: decorator
@inline export function avgWindow(first: usize, ny: i32, nx: i32, rowStep: usize, colStep: usize, y: usize, c: i32, divisor: v128): void {
  const cb = <usize>c << 2;
  let ch: usize = 0;
  for (; ch + 64 <= cb; ch += 64) {
    let t0 = f32x4.splat(0.0), t1 = t0, t2 = t0, t3 = t0;
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let s0 = f32x4.splat(0.0), s1 = s0, s2 = s0, s3 = s0;
      let px = row;
      for (let i = 0; i < nx; i++) {
        s0 = f32x4.add(s0, v128.load(px));
        s1 = f32x4.add(s1, v128.load(px, 16));
        s2 = f32x4.add(s2, v128.load(px, 32));
        s3 = f32x4.add(s3, v128.load(px, 48));
        px += colStep;
      }
      t0 = f32x4.add(t0, s0);
      t1 = f32x4.add(t1, s1);
      t2 = f32x4.add(t2, s2);
      t3 = f32x4.add(t3, s3);
      row += rowStep;
    }
    v128.store(y + ch, f32x4.div(t0, divisor));
    v128.store(y + ch, f32x4.div(t1, divisor), 16);
    v128.store(y + ch, f32x4.div(t2, divisor), 32);
    v128.store(y + ch, f32x4.div(t3, divisor), 48);
  }
  for (; ch + 16 <= cb; ch += 16) {
    let t = f32x4.splat(0.0);
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let s = f32x4.splat(0.0);
      let px = row;
      for (let i = 0; i < nx; i++) {
        s = f32x4.add(s, v128.load(px));
        px += colStep;
      }
      t = f32x4.add(t, s);
      row += rowStep;
    }
    v128.store(y + ch, f32x4.div(t, divisor));
  }
  for (; ch < cb; ch += 4) {
    let t = f32x4.splat(0.0);
    let row = first + ch;
    for (let j = 0; j < ny; j++) {
      let s = f32x4.splat(0.0);
      let px = row;
      for (let i = 0; i < nx; i++) {
        s = f32x4.add(s, v128.load32_splat(px));
        px += colStep;
      }
      t = f32x4.add(t, s);
      row += rowStep;
    }
    v128.store32_lane(y + ch, f32x4.div(t, divisor), 0);
  }
}
