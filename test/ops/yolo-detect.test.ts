// models.yolo.Detect reference: a hand-computed 1-level, 1-anchor, 2x2-map, 1-class head, then the
// ways the constants can come (legacy grid, swapped order, no grid, other map size, several levels).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { assertClose, bind, run1 } from './support.ts';

const L = Math.log(3); // sigmoid(L) = 0.75, sigmoid(2L) = 0.9, sigmoid(-L) = 0.25, sigmoid(-2L) = 0.1

/** (1, na=1, h, w, 2) filled by position. */
function grid5(h: number, w: number, f: (y: number, x: number) => [number, number]): Tensor {
  const data: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.push(...f(y, x));
  return Tensor.f32([1, 1, h, w, 2], data);
}

const head = (i: number) => ({
  [`m.${i}.weight`]: Tensor.f32([6, 1, 1, 1], [1, 1, 1, 1, 1, 1]),
  [`m.${i}.bias`]: Tensor.f32([6], [0, L, 0, -L, L, 0]),
});
const v6Grid = grid5(2, 2, (y, x) => [x - 0.5, y - 0.5]);
const anchors = grid5(2, 2, () => [10, 13]);
const input = Tensor.f32([1, 1, 2, 2], [0, L, -L, 0]);

/**
 * Per pixel (y, x) the conv gives input + bias; s = sigmoid. With stride 8 and anchor (10, 13):
 * x = (2 s0 + x - 0.5) * 8, y = (2 s1 + y - 0.5) * 8, w = (2 s2)^2 * 10, h = (2 s3)^2 * 13, then s4, s5.
 */
const expected = [
  4, 8, 10, 3.25, 0.75, 0.5, // (0,0): s = .5 .75 .5 .25 .75 .5
  16, 10.4, 22.5, 13, 0.9, 0.75, // (0,1): s = .75 .9 .75 .5 .9 .75
  0, 12, 2.5, 0.52, 0.5, 0.25, // (1,0): s = .25 .5 .25 .1 .5 .25
  12, 16, 10, 3.25, 0.75, 0.5, // (1,1): as (0,0)
];

const detect = (weights: Record<string, Tensor>, inputs = 1) => bind('models.yolo.Detect', { inputs, weights, name: '24' });

test('Detect, hand-computed: 1 level, 1 anchor, 2x2 map, 1 class, v6 grid, stride constant 8', () => {
  const op = detect({ ...head(0), pnnx_0: v6Grid, pnnx_1: anchors, pnnx_2: Tensor.f32([1], [8]) });
  assertClose(run1(op, input), [1, 4, 6], expected, 1e-5, 1e-6);
  // Batch 3: each sample decoded alone.
  const batch = Tensor.f32([3, 1, 2, 2], [...input.f32, ...input.f32, ...input.f32]);
  assertClose(run1(op, batch), [3, 4, 6], [...expected, ...expected, ...expected], 1e-5, 1e-6);
});

test('Detect: a legacy grid (x, y) with (2s - 0.5 + grid), constants in either order, default stride 8', () => {
  const legacy = grid5(2, 2, (y, x) => [x, y]);
  assertClose(run1(detect({ ...head(0), pnnx_0: legacy, pnnx_1: anchors }), input), [1, 4, 6], expected, 1e-5, 1e-6);
  assertClose(run1(detect({ ...head(0), pnnx_0: anchors, pnnx_1: v6Grid }), input), [1, 4, 6], expected, 1e-5, 1e-6);
});

test('Detect: when neither constant looks like a grid, the first declared is the grid', () => {
  const notGrid = grid5(2, 2, () => [0.25, 0.25]);
  const y = run1(detect({ ...head(0), pnnx_0: notGrid, pnnx_1: anchors }), input);
  const want = expected.map((v, i) => (i % 6 === 0 ? (2 * [0.5, 0.75, 0.25, 0.5][i / 6]! + 0.25) * 8 : i % 6 === 1 ? (2 * [0.75, 0.9, 0.5, 0.75][(i - 1) / 6]! + 0.25) * 8 : v));
  assertClose(y, [1, 4, 6], want, 1e-5, 1e-6);
});

test('Detect: a map of another size regenerates the grid (same offset) and uses the anchors at (0,0)', () => {
  for (const grid of [v6Grid, grid5(2, 2, (y, x) => [x, y])]) {
    const op = detect({ ...head(0), pnnx_0: grid, pnnx_1: anchors, pnnx_2: Tensor.f32([1], [8]) });
    // A 3x3 map of zeros: s = sigmoid(bias) everywhere = .5 .75 .5 .25 .75 .5.
    const y = run1(op, Tensor.f32([1, 1, 3, 3], new Float32Array(9)));
    const want: number[] = [];
    for (let gy = 0; gy < 3; gy++) for (let gx = 0; gx < 3; gx++) want.push((1 + gx - 0.5) * 8, (1.5 + gy - 0.5) * 8, 10, 3.25, 0.75, 0.5);
    assertClose(y, [1, 9, 6], want, 1e-5, 1e-6);
  }
});

test('Detect: two levels given smallest map first; strides follow map size, rows follow input order', () => {
  const small = { grid: grid5(1, 1, () => [-0.5, -0.5]), anchor: grid5(1, 1, () => [30, 61]) };
  const op = detect({
    ...head(0), ...head(1),
    pnnx_0: small.grid, pnnx_1: small.anchor, pnnx_2: v6Grid, pnnx_3: Tensor.f32([2], [8, 16]), pnnx_4: anchors,
  }, 2);
  const y = run1(op, Tensor.f32([1, 1, 1, 1], [0]), input);
  // The 1x1 map is the smaller one: stride 16, anchor (30, 61); s as at pixel (0,0) above.
  const first = [(1 - 0.5) * 16, (1.5 - 0.5) * 16, 1 * 30, 0.25 * 61, 0.75, 0.5];
  assertClose(y, [1, 5, 6], [...first, ...expected], 1e-5, 1e-6);
});

test('Detect: unpaired constants and missing constants are NodeErrors naming the node', () => {
  assert.throws(() => detect({ ...head(0), pnnx_0: v6Grid }), (e: unknown) =>
    e instanceof NodeError && /models\.yolo\.Detect node "24": constants @pnnx_0 are 2x2 maps: expected one grid and one anchor grid/.test(e.message));
  assert.throws(() => run1(detect({ ...head(0) }), input), /has no grid constants/);
});
