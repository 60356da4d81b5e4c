// Softmax and log-softmax references: hand values, +-1000 without NaN, negative dims against a
// direct per-line computation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { assertClose, at, bind, randomTensor, run1 } from './support.ts';

const softmax = (dim: number, type = 'F.softmax') => bind(type, { params: { dim: String(dim) } });

test('softmax of (1,2,3) and of +-1000 (no NaN, no overflow)', () => {
  const e = [Math.exp(1), Math.exp(2), Math.exp(3)];
  const total = e[0]! + e[1]! + e[2]!;
  assertClose(run1(softmax(0), Tensor.f32([3], [1, 2, 3])), [3], e.map((v) => v / total));
  assertClose(run1(softmax(-1, 'nn.Softmax'), Tensor.f32([2, 2], [1000, -1000, -1000, -1000])), [2, 2], [1, 0, 0.5, 0.5]);
  assertClose(run1(softmax(1, 'F.log_softmax'), Tensor.f32([1, 2], [1000, -1000])), [1, 2], [0, -2000]);
  assertClose(run1(softmax(0, 'nn.LogSoftmax'), Tensor.f32([2], [1000, 1000])), [2], [-Math.LN2, -Math.LN2]);
});

test('softmax over dim -2 and dim 1 of a (3,4,2,5) batch equals a per-line computation', () => {
  const x = randomTensor([3, 4, 2, 5], 11, -5, 5);
  for (const [dim, axis] of [[-2, 2], [1, 1], [0, 0], [-1, 3]] as const) {
    const want: number[] = [];
    const shape = x.shape;
    for (let a = 0; a < shape[0]!; a++) {
      for (let b = 0; b < shape[1]!; b++) {
        for (let c = 0; c < shape[2]!; c++) {
          for (let d = 0; d < shape[3]!; d++) {
            const idx = [a, b, c, d];
            const line = Array.from({ length: shape[axis]! }, (_, k) => at(x, ...idx.map((v, i) => (i === axis ? k : v))));
            const denom = line.reduce((s, v) => s + Math.exp(v), 0);
            want.push(Math.exp(at(x, a, b, c, d)) / denom);
          }
        }
      }
    }
    assertClose(run1(softmax(dim), x), shape, want, 1e-7, 1e-6);
    const logWant = want.map(Math.log);
    assertClose(run1(softmax(dim, 'torch.log_softmax'), x), shape, logWant, 1e-6, 1e-6);
  }
});

test('softmax dim out of range is a NodeError naming node and dim', () => {
  assert.throws(() => run1(softmax(3), Tensor.f32([2, 2], [1, 2, 3, 4])), (e: unknown) =>
    e instanceof NodeError && /F\.softmax node "op": dim=3 is out of range for input \(2,2\)/.test(e.message));
  assert.throws(() => bind('F.softmax'), /param dim is missing/);
});
