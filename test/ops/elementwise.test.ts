// Elementwise ops: the activation table (incl. the new nn.Softplus and torch.clamp) and nn.PReLU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { assertClose, bind, run1 } from './support.ts';

const xs = [-1000, -3, -1, -0.5, 0, 0.5, 1, 3, 1000];
const input = Tensor.f32([3, 3], xs);
const apply = (type: string, params: Record<string, string> = {}) => run1(bind(type, { params }), input);

test('activations at hand-picked points (double precision, rounded once)', () => {
  const sig = (x: number) => 1 / (1 + Math.exp(-x));
  const table: Array<[string, Record<string, string>, (x: number) => number]> = [
    ['nn.ReLU', {}, (x) => Math.max(x, 0)],
    ['nn.ReLU6', {}, (x) => Math.min(Math.max(x, 0), 6)],
    ['nn.Sigmoid', {}, sig],
    ['nn.SiLU', {}, (x) => x * sig(x)],
    ['nn.Hardswish', {}, (x) => (x <= -3 ? 0 : x >= 3 ? x : (x * (x + 3)) / 6)],
    ['nn.Hardsigmoid', {}, (x) => (x <= -3 ? 0 : x >= 3 ? 1 : x / 6 + 0.5)],
    ['nn.LeakyReLU', { negative_slope: '0.1' }, (x) => (x < 0 ? 0.1 * x : x)],
    ['nn.Hardtanh', { min_val: '-0.5', max_val: '2.0' }, (x) => Math.min(Math.max(x, -0.5), 2)],
    ['nn.Tanh', {}, Math.tanh],
  ];
  for (const [type, params, f] of table) assertClose(apply(type, params), [3, 3], xs.map(f), 1e-7, 1e-6);
});

test('softplus: log(1 + exp(beta x)) / beta, x itself above the threshold, no overflow at 1000', () => {
  const want = xs.map((x) => (x > 20 ? x : Math.log1p(Math.exp(x))));
  assertClose(apply('nn.Softplus'), [3, 3], want, 1e-7, 1e-6);
  assertClose(apply('F.softplus', { beta: '2.0', threshold: '1.0' }), [3, 3], xs.map((x) => (2 * x > 1 ? x : Math.log1p(Math.exp(2 * x)) / 2)), 1e-7, 1e-6);
  assert.equal(apply('nn.Softplus').f32[0], 0); // exp(-1000) underflows to 0: log1p(0) = 0, not NaN
});

test('clamp: min only, max only, both; min > max gives max; NaN stays NaN', () => {
  assertClose(apply('torch.clamp', { min: '-1.0', max: 'None' }), [3, 3], xs.map((x) => Math.max(x, -1)));
  assertClose(apply('torch.clamp', { max: '0.5' }), [3, 3], xs.map((x) => Math.min(x, 0.5)));
  assertClose(apply('torch.clamp', { min: '-1', max: '1' }), [3, 3], xs.map((x) => Math.min(Math.max(x, -1), 1)));
  assertClose(apply('torch.clamp', { min: '2.0', max: '1.0' }), [3, 3], xs.map(() => 1));
  assertClose(run1(bind('torch.clamp', { params: { min: '0.0' } }), Tensor.f32([2], [NaN, -1])), [2], [NaN, 0]);
  assert.throws(() => bind('torch.clamp', { params: { min: 'None', max: 'None' } }), (e: unknown) =>
    e instanceof NodeError && /torch\.clamp node "op": min and max are both None/.test(e.message));
});

test('PReLU: one shared slope, one slope per channel (dim 1), F.prelu with the weight as input', () => {
  const shared = bind('nn.PReLU', { params: { num_parameters: '1' }, weights: { weight: Tensor.f32([1], [0.25]) } });
  assertClose(run1(shared, input), [3, 3], xs.map((x) => (x >= 0 ? x : 0.25 * x)));
  const perChannel = bind('nn.PReLU', { params: { num_parameters: '2' }, weights: { weight: Tensor.f32([2], [0.1, 0.5]) } });
  const x = Tensor.f32([2, 2, 2], [-1, 2, -4, 4, -10, 1, 2, -2]);
  assertClose(run1(perChannel, x), [2, 2, 2], [-0.1, 2, -2, 4, -1, 1, 2, -1]);
  const functional = bind('F.prelu', { inputs: 2 });
  assertClose(run1(functional, x, Tensor.f32([2], [0.1, 0.5])), [2, 2, 2], [-0.1, 2, -2, 4, -1, 1, 2, -1]);
  assert.throws(() => run1(perChannel, Tensor.f32([1, 3], [1, 2, 3])), /2 slopes need an input with 2 channels at dim 1, got \(1,3\)/);
  assert.throws(() => bind('nn.PReLU', { params: { num_parameters: '3' }, declared: { weight: [2] } }), /weight @weight is \(2\): expected \(3\)/);
});
