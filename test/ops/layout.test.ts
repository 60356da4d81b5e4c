// Ops that only move elements: reshape/view, permute/transpose, slice, squeeze/unsqueeze, flatten, and
// the identities (dropout, contiguous, to). Expected values are written out or computed by index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NodeError } from '../../src/errors.ts';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { numel } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, at, bind, indexOf, randomTensor, run1 } from './support.ts';

const same = (x: Tensor) => Array.from(x.f32);

test('reshape/view: the same row-major elements; one -1 is inferred', () => {
  const x = arange([2, 3, 4]);
  assertClose(run1(bind('Tensor.view', { params: { shape: '(4,-1)' } }), x), [4, 6], same(x));
  assertClose(run1(bind('Tensor.reshape', { params: { shape: '(-1,3,2,2)' } }), x), [2, 3, 2, 2], same(x));
  assertClose(run1(bind('torch.reshape', { params: { shape: '(-1)' } }), x), [24], same(x));
  assertClose(run1(bind('Tensor.view', { params: { shape: '(1,24)' } }), x), [1, 24], same(x));
});

test('reshape: bad shapes are NodeErrors naming node and shape', () => {
  assert.throws(() => bind('Tensor.view', { params: { shape: '(-1,-1)' } }), (e: unknown) =>
    e instanceof NodeError && /Tensor\.view node "op": shape=\(-1,-1\): expected sizes >= 0 and at most one -1/.test(e.message));
  const op = bind('Tensor.reshape', { params: { shape: '(5,-1)' } });
  assert.throws(() => run1(op, arange([2, 3, 4])), /shape=\(5,-1\) does not fit input \(2,3,4\) of 24 elements/);
  assert.throws(() => run1(bind('Tensor.reshape', { params: { shape: '(5,5)' } }), arange([2, 3, 4])), /holds 25 elements, input \(2,3,4\) holds 24/);
  assert.throws(() => bind('Tensor.reshape'), /param shape is missing/);
});

test('reshape with the shape as a second, int64 input ($shape)', () => {
  const op = bind('Tensor.reshape', { inputs: 2, inputKeys: { input: 0, shape: 1 } });
  const y = op.reference([arange([2, 6]), new Tensor('i64', [2], BigInt64Array.from([3n, -1n]))])[0]!;
  assertClose(y, [3, 4], Array.from({ length: 12 }, (_, i) => i));
  // Shape inference knows the target when it is a loaded constant.
  const text = '7767517\n4 3\npnnx.Input in 0 1 0 #0=(2,6)f32\npnnx.Attribute s 0 1 1 @data=(2)i64\nTensor.reshape r 2 1 0 1 2 $input=0 $shape=1\npnnx.Output out 1 0 2\n';
  const g = parsePnnxParam(text, 'reshape.pnnx.param');
  g.nodes[1]!.weights.get('data')!.data = BigInt64Array.from([4n, -1n]);
  inferShapes(g, defaultRegistry.bindAll(g));
  assert.deepEqual([...g.values.get('2')!.shape!], [4, 3]);
  delete g.nodes[1]!.weights.get('data')!.data;
  assert.throws(() => inferShapes(g, defaultRegistry.bindAll(g)), /the target shape is the run-time input "1"/);
});

test('permute and transpose: out[perm index] = x[index], negative dims', () => {
  const x = arange([2, 3, 4]);
  for (const dims of ['(2,0,1)', '(-1,0,-2)']) {
    const y = run1(bind('Tensor.permute', { params: { dims } }), x);
    const want: number[] = [];
    for (let c = 0; c < 4; c++) for (let a = 0; a < 2; a++) for (let b = 0; b < 3; b++) want.push(at(x, a, b, c));
    assertClose(y, [4, 2, 3], want);
  }
  const t = run1(bind('torch.transpose', { params: { dim0: '0', dim1: '-1' } }), x);
  const want: number[] = [];
  for (let c = 0; c < 4; c++) for (let b = 0; b < 3; b++) for (let a = 0; a < 2; a++) want.push(at(x, a, b, c));
  assertClose(t, [4, 3, 2], want);
  assert.throws(() => run1(bind('torch.permute', { params: { dims: '(0,0,1)' } }), x), (e: unknown) =>
    e instanceof NodeError && /dims=\(0,0,1\) is not a permutation of the dims of input \(2,3,4\)/.test(e.message));
  assert.throws(() => run1(bind('Tensor.transpose', { params: { dim0: '0', dim1: '3' } }), x), /dim0=0, dim1=3 are out of range/);
});

test('permute by a random permutation, then by its inverse, gives the input back (property)', () => {
  const arb = fc.integer({ min: 1, max: 5 }).chain((rank) => fc.record({
    shape: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: rank, maxLength: rank }),
    perm: fc.shuffledSubarray([...Array(rank).keys()], { minLength: rank, maxLength: rank }),
  }));
  fc.assert(fc.property(arb, ({ shape, perm }) => {
    const x = arange(shape);
    const y = run1(bind('Tensor.permute', { params: { dims: `(${perm.join(',')})` } }), x);
    // Element check: y at index i equals x at the index whose dim perm[k] is i[k].
    for (let f = 0; f < y.size; f++) {
      const i = indexOf(y.shape, f);
      const src = new Array<number>(shape.length);
      perm.forEach((d, k) => (src[d] = i[k]!));
      if (y.f32[f] !== at(x, ...src)) return false;
    }
    const inverse = perm.map((_, d) => perm.indexOf(d));
    const back = run1(bind('Tensor.permute', { params: { dims: `(${inverse.join(',')})` } }), y);
    return back.shape.join() === shape.join() && same(back).every((v, i) => v === i);
  }), { numRuns: 100, seed: 3 });
});

test('slice, scalar form: step, negative bounds, end=2147483647, out-of-range and reversed bounds', () => {
  const x = arange([2, 5]);
  const slice = (start: number, end: number, step = 1, dim = 1) =>
    run1(bind('Tensor.slice', { params: { dim: String(dim), start: String(start), end: String(end), step: String(step) } }), x);
  assertClose(slice(1, 2147483647, 2), [2, 2], [1, 3, 6, 8]);
  assertClose(slice(-3, -1), [2, 2], [2, 3, 7, 8]);
  assertClose(slice(3, 100), [2, 2], [3, 4, 8, 9]);
  assertClose(slice(-100, 2), [2, 2], [0, 1, 5, 6]);
  assertClose(slice(10, 20), [2, 0], []);
  assertClose(slice(3, 1), [2, 0], []);
  assertClose(slice(1, 2, 1, -2), [1, 5], [5, 6, 7, 8, 9]);
  assert.throws(() => slice(0, 4, 0), (e: unknown) => e instanceof NodeError && /Tensor\.slice node "op": step=0: slices need a step >= 1/.test(e.message));
});

test('slice, vector form: x[:, 1:3, ::2] and x[1, :, -1] (selects drop their dim)', () => {
  const x = arange([2, 3, 4]);
  const sliced = bind('Tensor.slice', { params: { dims: '(1,2)', starts: '(1,0)', ends: '(3,2147483647)', steps: '(1,2)' } });
  assertClose(run1(sliced, x), [2, 2, 2], [4, 6, 8, 10, 16, 18, 20, 22]);
  const selected = bind('Tensor.slice', { params: { dims: '(0,2)', starts: '(0,0)', ends: '(0,0)', steps: '(1,1)', selects: '(1,-1)' } });
  assertClose(run1(selected, x), [3], [15, 19, 23]);
  const mixed = bind('Tensor.slice', { params: { dims: '(0,1)', starts: '(0,-2)', ends: '(0,2147483647)', steps: '(1,1)', selects: '(0,2147483647)' } });
  assertClose(run1(mixed, x), [2, 4], [4, 5, 6, 7, 8, 9, 10, 11]);
  const outOfRange = bind('Tensor.slice', { params: { dims: '(0)', starts: '(0)', ends: '(0)', steps: '(1)', selects: '(2)' } });
  assert.throws(() => run1(outOfRange, x), /select index 2 is out of range for dim 0 of input \(2,3,4\)/);
  assert.throws(() => bind('Tensor.slice', { inputs: 2, inputKeys: { input: 0, start: 1 }, params: { dim: '0' } }), /run-time slice bounds \(\$start\) are not supported/);
});

test('squeeze, unsqueeze, flatten: shapes change, data stays', () => {
  const x = randomTensor([1, 3, 1, 2], 1);
  const shapeAfter = (type: string, params: Record<string, string>) => [...run1(bind(type, { params }), x).shape];
  assert.deepEqual(shapeAfter('torch.squeeze', {}), [3, 2]);
  assert.deepEqual(shapeAfter('torch.squeeze', { dim: '0' }), [3, 1, 2]);
  assert.deepEqual(shapeAfter('torch.squeeze', { dim: '1' }), [1, 3, 1, 2]); // size 3: left alone, as in PyTorch
  assert.deepEqual(shapeAfter('torch.squeeze', { dim: '(0,-2)' }), [3, 2]);
  assert.deepEqual(shapeAfter('torch.unsqueeze', { dim: '-1' }), [1, 3, 1, 2, 1]);
  assert.deepEqual(shapeAfter('torch.unsqueeze', { dim: '0' }), [1, 1, 3, 1, 2]);
  assert.deepEqual(shapeAfter('torch.unsqueeze', { dim: '-5' }), [1, 1, 3, 1, 2]);
  assert.deepEqual(shapeAfter('torch.flatten', {}), [6]);
  assert.deepEqual(shapeAfter('torch.flatten', { start_dim: '1', end_dim: '-1' }), [1, 6]);
  assert.deepEqual(shapeAfter('torch.flatten', { start_dim: '1', end_dim: '2' }), [1, 3, 2]);
  assertClose(run1(bind('torch.squeeze'), x), [3, 2], same(x));
  assert.throws(() => run1(bind('torch.unsqueeze', { params: { dim: '5' } }), x), /dim=5 is out of range for input \(1,3,1,2\) \(expected -5 to 4\)/);
  assert.throws(() => run1(bind('torch.squeeze', { params: { dim: '4' } }), x), /dim=4 is out of range/);
});

test('identities: dropout, nn.Identity, contiguous copy their input; Tensor.to casts to float32 only', () => {
  const x = randomTensor([2, 3], 2);
  for (const type of ['nn.Dropout', 'nn.Dropout2d', 'F.dropout', 'nn.Identity', 'Tensor.contiguous']) {
    const y = run1(bind(type, { params: type === 'F.dropout' ? { p: '0.5', training: 'False' } : {} }), x);
    assertClose(y, [2, 3], same(x));
    assert.notEqual(y.data, x.data, `${type} must not alias its input`);
  }
  assertClose(run1(bind('Tensor.to', { params: { dtype: 'torch.float', copy: 'False' } }), x), [2, 3], same(x));
  const ints = new Tensor('i32', [3], Int32Array.from([1, -2, 7]));
  assertClose(run1(bind('Tensor.to', { params: { dtype: 'torch.float32' } }), ints), [3], [1, -2, 7]);
  assert.throws(() => bind('Tensor.to', { params: { dtype: 'torch.int64' } }), /param dtype=torch\.int64: expected one of torch\.float, torch\.float32/);
});

test('data-movement ops keep non-float dtypes (int64 slice and permute)', () => {
  const x = new Tensor('i64', [2, 3], BigInt64Array.from([0n, 1n, 2n, 3n, 4n, 5n]));
  const y = run1(bind('Tensor.permute', { params: { dims: '(1,0)' } }), x);
  assert.deepEqual([...(y.data as BigInt64Array)], [0n, 3n, 1n, 4n, 2n, 5n]);
  const s = run1(bind('Tensor.slice', { params: { dim: '1', start: '1', end: '2147483647', step: '1' } }), x);
  assert.equal(s.dtype, 'i64');
  assert.deepEqual([...(s.data as BigInt64Array)], [1n, 2n, 4n, 5n]);
  assert.equal(numel(s.shape), 4);
});
