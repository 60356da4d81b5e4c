// torch.mean / torch.sum and the padding ops (F.pad, nn.*Pad2d), against hand-written values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, at, bind, randomTensor, run1 } from './support.ts';

test('mean and sum over one dim, a negative dim, a list of dims, all dims; keepdim', () => {
  const x = arange([2, 3, 4]);
  assertClose(run1(bind('torch.sum', { params: { dim: '1', keepdim: 'False' } }), x), [2, 4], [12, 15, 18, 21, 48, 51, 54, 57]);
  assertClose(run1(bind('torch.mean', { params: { dim: '-1', keepdim: 'True' } }), x), [2, 3, 1], [1.5, 5.5, 9.5, 13.5, 17.5, 21.5]);
  assertClose(run1(bind('torch.mean', { params: { dim: '(0,2)' } }), x), [3], [7.5, 11.5, 15.5]);
  assertClose(run1(bind('torch.sum', { params: { dim: '(-1,-3)', keepdim: 'True' } }), x), [1, 3, 1], [60, 92, 124]);
  assertClose(run1(bind('torch.sum'), x), [], [276]);
  assertClose(run1(bind('torch.mean', { params: { dim: 'None', keepdim: 'True' } }), x), [1, 1, 1], [11.5]);
  // Global average pooling written as a mean over (2,3) of a batch.
  const img = randomTensor([3, 2, 5, 7], 1);
  const gap = run1(bind('F.adaptive_avg_pool2d', { params: { output_size: '(1,1)' } }), img);
  assertClose(run1(bind('torch.mean', { params: { dim: '(2,3)', keepdim: 'True' } }), img), [3, 2, 1, 1], Array.from(gap.f32), 1e-6);
  assert.throws(() => run1(bind('torch.sum', { params: { dim: '(1,1)' } }), x), (e: unknown) =>
    e instanceof NodeError && /torch\.sum node "op": dim=\(1,1\) is out of range or repeats a dim of input \(2,3,4\)/.test(e.message));
});

test('F.pad constant (last dim first, negative crops), reflect, replicate, circular', () => {
  const x = Tensor.f32([1, 1, 2, 3], [1, 2, 3, 4, 5, 6]);
  const pad = (pad: string, mode: string, value?: string) => run1(bind('F.pad', { params: { pad, mode, ...(value ? { value } : {}) } }), x);
  assertClose(pad('(1,0,0,1)', 'constant', '9.0'), [1, 1, 3, 4], [9, 1, 2, 3, 9, 4, 5, 6, 9, 9, 9, 9]);
  assertClose(pad('(-1,1)', 'constant'), [1, 1, 2, 3], [2, 3, 0, 5, 6, 0]);
  assertClose(pad('(2,1)', 'reflect'), [1, 1, 2, 6], [3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5]);
  assertClose(pad('(1,1,1,0)', 'replicate'), [1, 1, 3, 5], [1, 1, 2, 3, 3, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6]);
  assertClose(pad('(1,2,1,1)', 'circular'), [1, 1, 4, 6], [6, 4, 5, 6, 4, 5, 3, 1, 2, 3, 1, 2, 6, 4, 5, 6, 4, 5, 3, 1, 2, 3, 1, 2]);
  // A pad list covering the channel dim as well.
  assert.deepEqual([...pad('(0,0,0,0,1,1)', 'constant').shape], [1, 3, 2, 3]);
});

test('padding modules: ZeroPad2d, ConstantPad2d, ReflectionPad2d, ReplicationPad2d (int and 4-tuple padding)', () => {
  const x = Tensor.f32([1, 2, 2], [1, 2, 3, 4]);
  const pad = (type: string, params: Record<string, string>) => run1(bind(type, { params }), x);
  const zero = pad('nn.ZeroPad2d', { padding: '(1,0,0,0)' });
  assertClose(zero, [1, 2, 3], [0, 1, 2, 0, 3, 4]);
  const constant = pad('nn.ConstantPad2d', { padding: '(0,0,1,0)', value: '-1.5' });
  assertClose(constant, [1, 3, 2], [-1.5, -1.5, 1, 2, 3, 4]);
  const reflect = pad('nn.ReflectionPad2d', { padding: '1' });
  assertClose(reflect, [1, 4, 4], [4, 3, 4, 3, 2, 1, 2, 1, 4, 3, 4, 3, 2, 1, 2, 1]);
  const replicate = pad('nn.ReplicationPad2d', { padding: '1' });
  assertClose(replicate, [1, 4, 4], [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]);
  const big = randomTensor([3, 2, 5, 4], 2);
  const y = run1(bind('nn.ReflectionPad2d', { params: { padding: '(3,2,4,1)' } }), big);
  // Reflection reads index -i for i < 0 and 2(n-1)-i past the end.
  const r = (i: number, n: number) => (i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i);
  assert.equal(at(y, 2, 1, 0, 0), at(big, 2, 1, r(-4, 5), r(-3, 4)));
  assert.equal(at(y, 1, 0, 9, 8), at(big, 1, 0, r(5, 5), r(5, 4)));
});

test('pad params: reflect padding as large as the dim, odd pad lists, negative non-constant pads are NodeErrors', () => {
  const x = Tensor.f32([1, 1, 2, 3], [1, 2, 3, 4, 5, 6]);
  assert.throws(() => run1(bind('F.pad', { params: { pad: '(3,0)', mode: 'reflect' } }), x), (e: unknown) =>
    e instanceof NodeError && /F\.pad node "op": pad=\(3,0\) does not fit dim 3 of input \(1,1,2,3\) in mode reflect/.test(e.message));
  assert.throws(() => bind('F.pad', { params: { pad: '(1,2,3)' } }), /pad=\(1,2,3\) must hold a \(before, after\) pair per dim/);
  assert.throws(() => bind('nn.ReplicationPad2d', { params: { padding: '(-1,0,0,0)' } }), /mode replicate needs pads >= 0/);
  assert.throws(() => bind('nn.ZeroPad2d', { params: { padding: '(1,1,1)' } }), /param padding=\(1,1,1\): expected 4 integers/);
});
