// nn.Linear and torch.matmul references: hand-computed products, promotion of 1-D operands, broadcast batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, at, bind, randomTensor, run1 } from './support.ts';

test('linear on (2,3,4): y = x W^T + b on the last dim (hand-computed rows)', () => {
  const weight = Tensor.f32([3, 4], [1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1]);
  const op = bind('nn.Linear', { params: { in_features: '4', out_features: '3', bias: 'True' }, weights: { weight, bias: Tensor.f32([3], [0.5, 0, -1]) } });
  const x = arange([2, 3, 4]);
  const want: number[] = [];
  for (let r = 0; r < 6; r++) want.push(4 * r + 0.5, 4 * r + 1, 16 * r + 6 - 1);
  assertClose(run1(op, x), [2, 3, 3], want);
  const noBias = bind('nn.Linear', { params: { in_features: '4', out_features: '3', bias: 'False' }, weights: { weight } });
  assertClose(run1(noBias, Tensor.f32([4], [1, 2, 3, 4])), [3], [1, 2, 10]);
});

test('linear equals matmul with the transposed weight plus bias (batch 3, odd sizes)', () => {
  const weight = randomTensor([5, 7], 1);
  const bias = randomTensor([5], 2);
  const x = randomTensor([3, 7], 3);
  const y = run1(bind('nn.Linear', { params: { in_features: '7', out_features: '5' }, weights: { weight, bias } }), x);
  const wt = run1(bind('torch.transpose', { params: { dim0: '0', dim1: '1' } }), weight);
  const prod = run1(bind('torch.matmul', { inputs: 2 }), x, wt);
  assertClose(y, [3, 5], Array.from(prod.f32, (v, i) => v + bias.f32[i % 5]!), 1e-6, 1e-6);
});

test('matmul: dot, matrix product, 1-D promotion on either side', () => {
  const mm = bind('torch.matmul', { inputs: 2 });
  assertClose(run1(mm, Tensor.f32([3], [1, 2, 3]), Tensor.f32([3], [4, 5, 6])), [], [32]);
  const a = Tensor.f32([2, 2], [1, 2, 3, 4]);
  const b = Tensor.f32([2, 2], [5, 6, 7, 8]);
  assertClose(run1(mm, a, b), [2, 2], [19, 22, 43, 50]);
  assertClose(run1(mm, Tensor.f32([2], [1, 2]), b), [2], [19, 22]);
  assertClose(run1(mm, a, Tensor.f32([2], [5, 6])), [2], [17, 39]);
  assertClose(run1(bind('torch.mm', { inputs: 2 }), a, b), [2, 2], [19, 22, 43, 50]);
});

test('matmul: batch dims broadcast, (2,1,2,3) @ (3,3,2) → (2,3,2,2); 1-D @ batched', () => {
  const a = randomTensor([2, 1, 2, 3], 4);
  const b = randomTensor([3, 3, 2], 5);
  const want: number[] = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += at(a, i, 0, r, k) * at(b, j, k, c);
    want.push(s);
  }
  assertClose(run1(bind('torch.matmul', { inputs: 2 }), a, b), [2, 3, 2, 2], want, 1e-6);
  const v = Tensor.f32([3], [1, 0, -1]);
  const vb = run1(bind('torch.matmul', { inputs: 2 }), v, b);
  assertClose(vb, [3, 2], Array.from({ length: 6 }, (_, t) => at(b, Math.floor(t / 2), 0, t % 2) - at(b, Math.floor(t / 2), 2, t % 2)), 1e-6);
  assertClose(run1(bind('torch.bmm', { inputs: 2 }), arange([2, 1, 2]), Tensor.f32([2, 2, 1], [1, 1, 1, -1])), [2, 1, 1], [1, -1]);
});

test('matmul and linear shape problems are NodeErrors naming node and shapes', () => {
  const mm = bind('torch.matmul', { inputs: 2 });
  assert.throws(() => run1(mm, randomTensor([2, 3], 1), randomTensor([2, 3], 2)), (e: unknown) =>
    e instanceof NodeError && /torch\.matmul node "op": \(2,3\) @ \(2,3\): inner sizes 3 and 2 differ/.test(e.message));
  assert.throws(() => run1(mm, randomTensor([2, 2, 3], 1), randomTensor([3, 3, 2], 2)), /batch dims do not broadcast/);
  assert.throws(() => bind('nn.Linear', { params: { in_features: '4', out_features: '3' }, declared: { weight: [3, 5] } }), /weight @weight is \(3,5\): expected \(3,4\)/);
});
