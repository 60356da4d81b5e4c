// Max, average and adaptive pooling references against hand-computed values and explicit window lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, at, bind, randomTensor, run1 } from './support.ts';

const pool = (type: string, params: Record<string, string>) => bind(type, { params });

test('max pool: 2x2/2 picks each block maximum; batch 3 keeps samples apart', () => {
  const op = pool('nn.MaxPool2d', { kernel_size: '(2,2)', stride: '(2,2)' });
  assertClose(run1(op, arange([1, 1, 4, 4])), [1, 1, 2, 2], [5, 7, 13, 15]);
  const x = arange([3, 2, 4, 4]);
  const y = run1(op, x);
  assert.equal(at(y, 2, 1, 1, 1), at(x, 2, 1, 3, 3));
  assert.equal(at(y, 1, 0, 0, 1), at(x, 1, 0, 1, 3));
});

test('max pool: padded cells never win, ceil_mode overhang, dilation, NaN propagates', () => {
  // All values negative: a padded zero must not be the maximum.
  const neg = Tensor.f32([1, 1, 2, 2], [-4, -3, -2, -1]);
  assertClose(run1(pool('nn.MaxPool2d', { kernel_size: '(3,3)', stride: '(1,1)', padding: '(1,1)' }), neg), [1, 1, 2, 2], [-1, -1, -1, -1]);
  // 5 wide, kernel 2 stride 2, ceil_mode: a third window starts at 4 and overhangs the input.
  const row = Tensor.f32([1, 1, 1, 5], [1, 5, 2, 4, -3]);
  assertClose(run1(pool('nn.MaxPool2d', { kernel_size: '(1,2)', stride: '(1,2)', ceil_mode: 'True' }), row), [1, 1, 1, 3], [5, 4, -3]);
  assertClose(run1(pool('nn.MaxPool2d', { kernel_size: '(1,2)', stride: '(1,2)', ceil_mode: 'False' }), row), [1, 1, 1, 2], [5, 4]);
  // Dilation 2: window {0, 2} then {1, 3}, ...
  assertClose(run1(pool('nn.MaxPool2d', { kernel_size: '(1,2)', stride: '(1,1)', dilation: '(1,2)' }), row), [1, 1, 1, 3], [2, 5, 2]);
  const nan = Tensor.f32([1, 1, 1, 4], [1, NaN, 3, 2]);
  assertClose(run1(pool('nn.MaxPool2d', { kernel_size: '(1,2)', stride: '(1,2)' }), nan), [1, 1, 1, 2], [NaN, 3]);
});

test('avg pool: ceil_mode window hanging past the padding divides by the padded size, not k*k', () => {
  // 4x4 ones, kernel 3, stride 2, padding 1, ceil_mode: along a dim the windows are
  // [-1,2) (3 cells, 2 inside), [1,4) (3, 3), [3,5) (clipped at input+padding: 2 cells, 1 inside).
  const ones = Tensor.f32([1, 1, 4, 4], new Float32Array(16).fill(1));
  const params = { kernel_size: '(3,3)', stride: '(2,2)', padding: '(1,1)', ceil_mode: 'True' };
  const padded = [3, 3, 2];
  const inside = [2, 3, 1];
  const withPad: number[] = [];
  const withoutPad: number[] = [];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      withPad.push((inside[i]! * inside[j]!) / (padded[i]! * padded[j]!));
      withoutPad.push(1);
    }
  }
  assertClose(run1(pool('nn.AvgPool2d', { ...params, count_include_pad: 'True' }), ones), [1, 1, 3, 3], withPad);
  assertClose(run1(pool('nn.AvgPool2d', { ...params, count_include_pad: 'False' }), ones), [1, 1, 3, 3], withoutPad);
  assert.equal(withPad[8], 0.25); // the corner: 1 cell inside, 2x2 padded window
  // divisor_override divides every window's sum by the same number.
  const override = run1(pool('nn.AvgPool2d', { ...params, divisor_override: '2' }), ones);
  assertClose(override, [1, 1, 3, 3], [2, 3, 1, 3, 4.5, 1.5, 1, 1.5, 0.5]);
});

test('avg pool: 3x3 arange, kernel 2 stride 2 ceil_mode (hand-computed) and random input against window lists', () => {
  const op = pool('nn.AvgPool2d', { kernel_size: '(2,2)', stride: '(2,2)', ceil_mode: 'True' });
  assertClose(run1(op, arange([1, 1, 3, 3])), [1, 1, 2, 2], [2, 3.5, 6.5, 8]);
  // Odd sizes, stride > kernel, batch 3, padding, count_include_pad False: windows written out per dim.
  const x = randomTensor([3, 2, 7, 5], 5);
  const y = run1(pool('nn.AvgPool2d', { kernel_size: '(2,3)', stride: '(3,4)', padding: '(1,1)', count_include_pad: 'False' }), x);
  const rows = [[0], [2, 3], [5, 6]]; // windows [-1,1), [2,4), [5,7)
  const cols = [[0, 1], [3, 4]]; // windows [-1,2), [3,6)
  const want: number[] = [];
  for (let b = 0; b < 3; b++) {
    for (let c = 0; c < 2; c++) {
      for (const r of rows) {
        for (const cs of cols) {
          let s = 0;
          for (const i of r) for (const j of cs) s += at(x, b, c, i, j);
          want.push(s / (r.length * cs.length));
        }
      }
    }
  }
  assertClose(y, [3, 2, 3, 2], want, 1e-6, 1e-6);
});

test('adaptive pools: windows [floor(i*n/out), ceil((i+1)*n/out)) (hand-derived lists)', () => {
  const x = randomTensor([2, 3, 5, 7], 9);
  const rows = [[0, 1], [1, 2, 3], [3, 4]]; // n=5, out=3
  const cols = [[0, 1, 2, 3], [3, 4, 5, 6]]; // n=7, out=2
  const avg: number[] = [];
  const max: number[] = [];
  for (let b = 0; b < 2; b++) {
    for (let c = 0; c < 3; c++) {
      for (const r of rows) {
        for (const cs of cols) {
          const cells = r.flatMap((i) => cs.map((j) => at(x, b, c, i, j)));
          avg.push(cells.reduce((a, v) => a + v, 0) / cells.length);
          max.push(Math.max(...cells));
        }
      }
    }
  }
  assertClose(run1(pool('nn.AdaptiveAvgPool2d', { output_size: '(3,2)' }), x), [2, 3, 3, 2], avg);
  assertClose(run1(pool('nn.AdaptiveMaxPool2d', { output_size: '(3,2)' }), x), [2, 3, 3, 2], max);
  // Global average pooling of an unbatched (C,H,W) input; output larger than input repeats cells.
  assertClose(run1(pool('F.adaptive_avg_pool2d', { output_size: '(1,1)' }), arange([2, 3, 3])), [2, 1, 1], [4, 13]);
  assertClose(run1(pool('nn.AdaptiveAvgPool2d', { output_size: '(2,3)' }), arange([1, 1, 1, 2])), [1, 1, 2, 3], [0, 0.5, 1, 0, 0.5, 1]);
});

test('pool params: padding over half the kernel and zero divisor are NodeErrors naming node and param', () => {
  assert.throws(() => pool('nn.MaxPool2d', { kernel_size: '(2,2)', padding: '(2,2)' }), (e: unknown) =>
    e instanceof NodeError && /nn\.MaxPool2d node "op".*padding=\(2,2\) must be between 0 and half/.test(e.message));
  assert.throws(() => pool('nn.AvgPool2d', { kernel_size: '2', divisor_override: '0' }), /divisor_override must not be 0/);
  assert.throws(() => pool('nn.AdaptiveAvgPool2d', { output_size: '(0,1)' }), /output_size=\(0,1\) must be >= 1/);
});
