// The op families added for ONNX import, against hand-computed values: nn.InstanceNorm2d,
// nn.LocalResponseNorm, Tensor.repeat, torch.where, onnx.Reshape, nn.PixelShuffle and onnx.DepthToSpace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, bind, run1 } from '../ops/support.ts';

test('instance norm: each (sample, channel) plane by its own mean and biased variance, then the affine', () => {
  const op = bind('nn.InstanceNorm2d', {
    params: { num_features: '2', eps: '0.0', affine: 'True' },
    weights: { weight: Tensor.f32([2], [2, 1]), bias: Tensor.f32([2], [0, 10]) },
  });
  // Plane (0,0) = 0 1 2 3: mean 1.5, variance 1.25.
  const x = arange([2, 2, 2, 2]);
  const s = Math.sqrt(1.25);
  const plane = [-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s];
  const want = [0, 1, 0, 1].flatMap((c) => plane.map((v) => (c === 0 ? 2 * v : v + 10)));
  assertClose(run1(op, x), [2, 2, 2, 2], want, 1e-6);
  const plain = bind('nn.InstanceNorm2d', { params: { num_features: '2', eps: '1.0' } });
  assertClose(run1(plain, Tensor.f32([1, 2, 1, 2], [1, 3, 5, 5])), [1, 2, 1, 2], [-1 / Math.sqrt(2), 1 / Math.sqrt(2), 0, 0]);
  assert.throws(() => run1(plain, arange([1, 3, 2, 2])), (e: unknown) => e instanceof NodeError && /expected num_features=2/.test(e.message));
});

test('local response norm: x / (k + alpha/size * window sum of squares)^beta, the window clipped at the channel ends', () => {
  const op = bind('nn.LocalResponseNorm', { params: { size: '3', alpha: '3.0', beta: '1.0', k: '1.0' } });
  // Channels 1, 2, 3 at one pixel; alpha/size = 1: c0 sums 1+4, c1 1+4+9, c2 4+9.
  assertClose(run1(op, Tensor.f32([1, 3, 1, 1], [1, 2, 3])), [1, 3, 1, 1], [1 / 6, 2 / 15, 3 / 14]);
  const half = bind('nn.LocalResponseNorm', { params: { size: '5', alpha: '5.0', beta: '0.5', k: '0.0' } });
  assertClose(run1(half, Tensor.f32([1, 2, 1, 1], [3, 4])), [1, 2, 1, 1], [3 / 5, 4 / 5]);
});

test('repeat tiles each dim; more sizes than dims prepend dims', () => {
  const op = bind('Tensor.repeat', { params: { sizes: '(2,3)' } });
  assertClose(run1(op, Tensor.f32([2, 1], [1, 2])), [4, 3], [1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2]);
  const lead = bind('Tensor.repeat', { params: { sizes: '(2,1,2)' } });
  assertClose(run1(lead, Tensor.f32([1, 2], [5, 6])), [2, 1, 4], [5, 6, 5, 6, 5, 6, 5, 6]);
  assert.throws(() => run1(bind('Tensor.repeat', { params: { sizes: '(2)' } }), arange([2, 2])), NodeError);
});

test('where picks input where the condition is non-zero, other elsewhere, all three broadcast', () => {
  const op = bind('torch.where', { inputs: 3 });
  const cond = new Tensor('bool', [2, 1], Uint8Array.of(1, 0));
  assertClose(run1(op, cond, Tensor.f32([1, 3], [1, 2, 3]), Tensor.f32([1], [-1])), [2, 3], [1, 2, 3, -1, -1, -1]);
  const floatCond = Tensor.f32([3], [0, 0.5, -2]);
  assertClose(run1(op, floatCond, Tensor.f32([3], [1, 2, 3]), Tensor.f32([3], [7, 8, 9])), [3], [7, 2, 3]);
});

test('onnx.Reshape: 0 copies the input size at that position, -1 takes the rest', () => {
  const op = bind('onnx.Reshape', { params: { shape: '(0,0,3,-1)' } });
  const y = run1(op, arange([2, 5, 12]));
  assertClose(y, [2, 5, 3, 4], Array.from({ length: 120 }, (_, i) => i));
  const other = run1(op, arange([1, 7, 6]));
  assert.deepEqual([...other.shape], [1, 7, 3, 2]);
  assert.throws(() => run1(op, arange([2, 5, 7])), (e: unknown) => e instanceof NodeError && /does not fit/.test(e.message));
  const zero = bind('onnx.Reshape', { params: { shape: '(0,4)', allowzero: 'True' } });
  assert.deepEqual([...run1(zero, Tensor.zeros([2, 0])).shape], [0, 4]);
});

test('pixel shuffle (CRD) and depth-to-space DCR order the channels differently', () => {
  // 4 channels of one pixel each, block 2: CRD takes channel i*2+j to (i, j); DCR takes (i*2+j)*C + c.
  const x = Tensor.f32([1, 8, 1, 1], [0, 1, 2, 3, 4, 5, 6, 7]);
  const crd = run1(bind('nn.PixelShuffle', { params: { upscale_factor: '2' } }), x);
  assertClose(crd, [1, 2, 2, 2], [0, 1, 2, 3, 4, 5, 6, 7]);
  const dcr = run1(bind('onnx.DepthToSpace', { params: { blocksize: '2', mode: 'DCR' } }), x);
  assertClose(dcr, [1, 2, 2, 2], [0, 2, 4, 6, 1, 3, 5, 7]);
  // A 2x2 image of one output channel: output (y, x) reads input pixel (y/2, x/2) of channel (y%2)*2 + x%2.
  const big = run1(bind('nn.PixelShuffle', { params: { upscale_factor: '2' } }), arange([1, 4, 2, 2]));
  assertClose(big, [1, 1, 4, 4], [0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15]);
  assert.throws(() => run1(bind('nn.PixelShuffle', { params: { upscale_factor: '2' } }), arange([1, 3, 2, 2])), NodeError);
});
