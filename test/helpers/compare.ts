// Comparing two tensors with a tolerance relative to the reference's largest magnitude, with a message
// that names the first bad element's N-d index.
import assert from 'node:assert/strict';
import { formatShape, stridesOf } from '../../src/tensor/shape.ts';
import type { Tensor } from '../../src/tensor/tensor.ts';

export function assertClose(got: Tensor, want: Tensor, relative: number, what = 'output'): void {
  assert.deepEqual([...got.shape], [...want.shape], `${what}: shape ${formatShape(got.shape)} vs ${formatShape(want.shape)}`);
  const g = got.f32;
  const w = want.f32;
  let scale = 0;
  for (const x of w) scale = Math.max(scale, Math.abs(x));
  const tol = relative * Math.max(scale, 1e-30);
  let worst = 0;
  let at = -1;
  for (let i = 0; i < w.length; i++) {
    const d = Math.abs(g[i]! - w[i]!);
    if (!(d <= worst)) {
      worst = d;
      at = i;
    }
  }
  if (!(worst <= tol)) {
    const strides = stridesOf(want.shape);
    const index = strides.map((s, k) => Math.floor(at / s) % want.shape[k]!);
    assert.fail(`${what} ${formatShape(want.shape)}: at [${index.join(',')}] expected ${w[at]}, got ${g[at]} ` +
      `(|diff| ${worst.toExponential(2)} > ${relative} x max|expected| ${scale.toExponential(2)})`);
  }
}
