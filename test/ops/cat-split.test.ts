// torch.cat, torch.chunk and torch.split references: hand-written pieces, uneven remainders, PyTorch's
// "fewer chunks than asked" rule, and cat(split(x)) == x.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, bind, randomTensor, run, run1 } from './support.ts';

test('cat along dim 1 and dim -1 (hand-written), batch 3, int64', () => {
  const a = Tensor.f32([2, 1, 2], [0, 1, 2, 3]);
  const b = Tensor.f32([2, 2, 2], [10, 11, 12, 13, 14, 15, 16, 17]);
  assertClose(run1(bind('torch.cat', { inputs: 2, params: { dim: '1' } }), a, b), [2, 3, 2], [0, 1, 10, 11, 12, 13, 2, 3, 14, 15, 16, 17]);
  const c = Tensor.f32([2, 1, 1], [-1, -2]);
  assertClose(run1(bind('torch.cat', { inputs: 2, params: { dim: '-1' } }), a, c), [2, 1, 3], [0, 1, -1, 2, 3, -2]);
  const x = randomTensor([3, 2, 5], 1);
  const y = run1(bind('torch.cat', { inputs: 3, params: { dim: '0' } }), x, x, x);
  assertClose(y, [9, 2, 5], [...x.f32, ...x.f32, ...x.f32]);
  const ints = new Tensor('i64', [1, 2], BigInt64Array.from([1n, 2n]));
  assert.deepEqual([...(run1(bind('torch.cat', { inputs: 2, params: { dim: '0' } }), ints, ints).data as BigInt64Array)], [1n, 2n, 1n, 2n]);
  assert.throws(() => run1(bind('torch.cat', { inputs: 2, params: { dim: '1' } }), a, Tensor.f32([1, 2, 2], [0, 0, 0, 0])), (e: unknown) =>
    e instanceof NodeError && /torch\.cat node "op": input 1 \(1,2,2\) does not match input 0 \(2,1,2\) outside dim 1/.test(e.message));
});

test('chunk: ceil(size/chunks) per piece, the last one smaller, fewer pieces than chunks when they run out', () => {
  const x = arange([2, 5]);
  const pieces = (chunks: number, outputs: number, dim = 1) => run(bind('torch.chunk', { outputs, params: { chunks: String(chunks), dim: String(dim) } }), x);
  const three = pieces(3, 3);
  assert.deepEqual(three.map((t) => [...t.shape]), [[2, 2], [2, 2], [2, 1]]);
  assertClose(three[2]!, [2, 1], [4, 9]);
  assertClose(three[1]!, [2, 2], [2, 3, 7, 8]);
  // 5 in 4 chunks: ceil(5/4) = 2 → pieces 2, 2, 1: only three outputs.
  assert.deepEqual(pieces(4, 3).map((t) => [...t.shape]), [[2, 2], [2, 2], [2, 1]]);
  assert.throws(() => pieces(4, 4), (e: unknown) =>
    e instanceof NodeError && /torch\.chunk node "op": cutting dim 1 of input \(2,5\) gives 3 pieces \(2, 2, 1\), but the graph wires 4 outputs/.test(e.message));
  // 6 in 4 chunks: ceil(6/4) = 2 → three pieces of 2.
  assert.deepEqual(run(bind('torch.chunk', { outputs: 3, params: { chunks: '4', dim: '-1' } }), arange([6])).map((t) => [...t.shape]), [[2], [2], [2]]);
  assert.deepEqual(pieces(2, 2, -2).map((t) => [...t.shape]), [[1, 5], [1, 5]]);
});

test('split by size and by sections; cat(split(x)) gives x back', () => {
  const x = randomTensor([3, 7, 2], 4);
  const bySize = run(bind('torch.split', { outputs: 4, params: { split_size_or_sections: '2', dim: '1' } }), x);
  assert.deepEqual(bySize.map((t) => t.shape[1]), [2, 2, 2, 1]);
  const sections = run(bind('torch.split', { outputs: 3, params: { split_size_or_sections: '(1,4,2)', dim: '-2' } }), x);
  assert.deepEqual(sections.map((t) => t.shape[1]), [1, 4, 2]);
  for (const parts of [bySize, sections]) {
    const back = run1(bind('torch.cat', { inputs: parts.length, params: { dim: '1' } }), ...parts);
    assertClose(back, [3, 7, 2], Array.from(x.f32));
  }
  assertClose(sections[0]!, [3, 1, 2], [0, 1, 2].flatMap((b) => [x.f32[b * 14]!, x.f32[b * 14 + 1]!]));
  assert.throws(() => run(bind('torch.split', { outputs: 2, params: { split_size_or_sections: '(3,3)', dim: '1' } }), x), /split_size_or_sections=\(3,3\) adds up to 6, the dim has 7/);
});
