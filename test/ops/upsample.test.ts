// nn.Upsample / F.interpolate / F.upsample references: PyTorch's source-coordinate rules, hand-computed.
// (The KuiperInfer cases in test/reference check bilinear against PyTorch's own output as well.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, bind, run1 } from './support.ts';

const resize = (params: Record<string, string>, type = 'nn.Upsample') => bind(type, { params });
const row = (values: number[]) => Tensor.f32([1, 1, 1, values.length], values);
const pick = (src: number[], index: number[]) => index.map((i) => src[i]!);

test('nearest x2 repeats each pixel twice in both dims', () => {
  const y = run1(resize({ mode: 'nearest', scale_factor: '(2.0,2.0)', size: 'None' }), arange([1, 1, 2, 2]));
  assertClose(y, [1, 1, 4, 4], [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]);
});

test('nearest: a given scale_factor maps with 1/scale, a given size with in/out', () => {
  const src = [10, 11, 12, 13, 14];
  // 5 → floor(5 * 1.3) = 6 wide. With 1/1.3: floor(d * 0.769) = 0,0,1,2,3,3; with 5/6: 0,0,1,2,3,4.
  assertClose(run1(resize({ mode: 'nearest', scale_factor: '(1.0,1.3)' }), row(src)), [1, 1, 1, 6], pick(src, [0, 0, 1, 2, 3, 3]));
  assertClose(run1(resize({ mode: 'nearest', size: '(1,6)' }), row(src)), [1, 1, 1, 6], pick(src, [0, 0, 1, 2, 3, 4]));
  assertClose(run1(resize({ mode: 'nearest', scale_factor: '(1.0,1.3)', recompute_scale_factor: 'True' }), row(src)), [1, 1, 1, 6], pick(src, [0, 0, 1, 2, 3, 4]));
  // Downscaling 5 → 2: floor(d * 2.5) = 0, 2. nearest-exact: floor((d + 0.5) * 2.5) = 1, 3.
  assertClose(run1(resize({ mode: 'nearest', size: '(1,2)' }), row(src)), [1, 1, 1, 2], pick(src, [0, 2]));
  assertClose(run1(resize({ mode: 'nearest-exact', size: '(1,2)' }), row(src)), [1, 1, 1, 2], pick(src, [1, 3]));
});

test('bilinear, align_corners=False: (dst+0.5)/scale-0.5 clamped at 0, with the given scale', () => {
  assertClose(run1(resize({ mode: 'bilinear', scale_factor: '(1.0,2.0)', align_corners: 'False' }), row([0, 1])), [1, 1, 1, 4], [0, 0.25, 0.75, 1]);
  // 2 → floor(2 * 1.6) = 3. Given scale: sources 0 (clamped), 0.4375, 1.0625 (clamped to the last pixel).
  assertClose(run1(resize({ mode: 'bilinear', scale_factor: '(1.0,1.6)' }), row([0, 10])), [1, 1, 1, 3], [0, 4.375, 10]);
  // The same size given as a size uses in/out = 2/3: sources 0, 0.5, 1.1667.
  assertClose(run1(resize({ mode: 'bilinear', size: '(1,3)' }), row([0, 10])), [1, 1, 1, 3], [0, 5, 10]);
  assertClose(run1(resize({ mode: 'bilinear', scale_factor: '(1.0,1.6)', recompute_scale_factor: 'True' }), row([0, 10])), [1, 1, 1, 3], [0, 5, 10]);
});

test('bilinear, align_corners=True: dst*(in-1)/(out-1); nn.UpsamplingBilinear2d defaults to it', () => {
  const want = [0, 1 / 3, 2 / 3, 1];
  assertClose(run1(resize({ mode: 'bilinear', size: '(1,4)', align_corners: 'True' }), row([0, 1])), [1, 1, 1, 4], want);
  assertClose(run1(resize({ size: '(1,4)' }, 'nn.UpsamplingBilinear2d'), row([0, 1])), [1, 1, 1, 4], want);
  // 2-D: corners keep their values, the centre of a 2x2 → 3x3 is the mean; batch 3 and channels stay apart.
  const x = Tensor.f32([3, 1, 2, 2], [0, 2, 4, 6, 1, 1, 1, 1, -8, 0, 0, 8]);
  const y = run1(resize({ mode: 'bilinear', size: '(3,3)', align_corners: 'True' }, 'F.interpolate'), x);
  assertClose(y, [3, 1, 3, 3], [0, 1, 2, 2, 3, 4, 4, 5, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, -8, -4, 0, -4, 0, 4, 0, 4, 8]);
});

test('bicubic (A = -0.75, clamped taps): the response to a single lit pixel', () => {
  const y = run1(resize({ mode: 'bicubic', scale_factor: '(1.0,2.0)', align_corners: 'False' }), row([0, 0, 1, 0, 0]));
  const [a, b, c, d] = [0.03515625, 0.10546875, 0.26171875, 0.87890625];
  assertClose(y, [1, 1, 1, 10], [0, -a, -b, c, d, d, c, -b, -a, 0], 1e-7);
});

test('resize params: size and scale_factor together, or neither, are NodeErrors', () => {
  assert.throws(() => resize({ mode: 'nearest', size: '(2,2)', scale_factor: '(2.0,2.0)' }), /nn\.Upsample node "op": takes size or scale_factor, not both/);
  assert.throws(() => resize({ mode: 'nearest' }), /needs size or scale_factor/);
  assert.throws(() => resize({ mode: 'trilinear', size: '(2,2)' }), /param mode=trilinear: expected one of nearest, bilinear/);
});
