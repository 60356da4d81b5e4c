// nn.BatchNorm1d/2d/3d (inference) and nn.LayerNorm / F.layer_norm references, hand-computed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, at, bind, randomTensor, run1 } from './support.ts';

const stats = {
  running_mean: Tensor.f32([2], [1, -2]),
  running_var: Tensor.f32([2], [4, 0.25]),
  weight: Tensor.f32([2], [2, 1]),
  bias: Tensor.f32([2], [0, 10]),
};

test('batchnorm2d: (x - mean) / sqrt(var + eps) * weight + bias per channel, batch 3', () => {
  const op = bind('nn.BatchNorm2d', { params: { num_features: '2', eps: '0.0', affine: 'True' }, weights: stats });
  const x = arange([3, 2, 2, 2]);
  const y = run1(op, x);
  const want = Array.from(x.f32, (v, i) => (Math.floor(i / 4) % 2 === 0 ? ((v - 1) / 2) * 2 : (v + 2) / 0.5 + 10));
  assertClose(y, [3, 2, 2, 2], want);
  const eps = bind('nn.BatchNorm2d', { params: { num_features: '2', eps: '1e-05' }, weights: stats });
  assert.ok(Math.abs(at(run1(eps, x), 0, 1, 0, 0) - ((4 + 2) / Math.sqrt(0.25 + 1e-5) + 10)) < 1e-4);
});

test('batchnorm without affine; BatchNorm1d on (N,C) and (N,C,L); BatchNorm3d', () => {
  const plain = { running_mean: stats.running_mean, running_var: stats.running_var };
  const op = bind('nn.BatchNorm1d', { params: { num_features: '2', eps: '0.0', affine: 'False' }, weights: plain });
  assertClose(run1(op, Tensor.f32([2, 2], [3, -1, 5, -2])), [2, 2], [1, 2, 2, 0]);
  assertClose(run1(op, Tensor.f32([1, 2, 3], [1, 3, 5, -2, -1.5, -1])), [1, 2, 3], [0, 1, 2, 0, 1, 2]);
  const op3 = bind('nn.BatchNorm3d', { params: { num_features: '2', eps: '0.0', affine: 'False' }, weights: plain });
  assertClose(run1(op3, Tensor.f32([1, 2, 1, 1, 2], [1, 5, -2, -1])), [1, 2, 1, 1, 2], [0, 2, 0, 2]);
  assert.throws(() => run1(op, Tensor.f32([1, 3], [1, 2, 3])), (e: unknown) => e instanceof NodeError && /expected \(N,2,\.\.\.\) for num_features=2/.test(e.message));
});

test('layer norm over the last dim and over the last two dims, with and without affine', () => {
  const ln = bind('nn.LayerNorm', {
    params: { normalized_shape: '(4)', eps: '0.0', elementwise_affine: 'True' },
    weights: { weight: Tensor.f32([4], [1, 2, 1, 1]), bias: Tensor.f32([4], [0, 0, 0, 1]) },
  });
  // (1,2,3,4): mean 2.5, variance 1.25 → (x - 2.5) / sqrt(1.25).
  const s = Math.sqrt(1.25);
  assertClose(run1(ln, Tensor.f32([2, 4], [1, 2, 3, 4, 8, 6, 4, 2])), [2, 4], [-1.5 / s, -1 / s, 0.5 / s, 1.5 / s + 1, 3 / (2 * s), 1 / s, -1 / (2 * s), -3 / (2 * s) + 1], 1e-6);
  const plain = bind('nn.LayerNorm', { params: { normalized_shape: '(2,2)', eps: '0.0', elementwise_affine: 'False' } });
  const x = randomTensor([3, 2, 2], 4);
  const want: number[] = [];
  for (let b = 0; b < 3; b++) {
    const v = Array.from(x.f32.subarray(b * 4, b * 4 + 4));
    const m = v.reduce((a, c) => a + c, 0) / 4;
    const variance = v.reduce((a, c) => a + (c - m) ** 2, 0) / 4;
    want.push(...v.map((c) => (c - m) / Math.sqrt(variance)));
  }
  assertClose(run1(plain, x), [3, 2, 2], want, 1e-5, 1e-5);
});

test('F.layer_norm takes weight and bias as inputs ($weight, $bias)', () => {
  // A constant row normalises to 0 thanks to eps (with eps = 0 it would be 0/0, as in PyTorch).
  const op = bind('F.layer_norm', { params: { normalized_shape: '(2)', eps: '1e-05' }, inputs: 3, inputKeys: { input: 0, weight: 1, bias: 2 } });
  const y = run1(op, Tensor.f32([2, 2], [1, 3, 5, 5]), Tensor.f32([2], [2, 3]), Tensor.f32([2], [1, 1]));
  assertClose(y, [2, 2], [-1, 4, 1, 1], 1e-4);
  const bare = bind('F.layer_norm', { params: { normalized_shape: '(2)', eps: '0.0' } });
  assertClose(run1(bare, Tensor.f32([2], [0, 2])), [2], [-1, 1]);
  assert.throws(() => run1(bare, Tensor.f32([3], [0, 1, 2])), (e: unknown) =>
    e instanceof NodeError && /F\.layer_norm node "op": input \(3\) does not end in normalized_shape=\(2\)/.test(e.message));
});
