// DB-style text regions from a probability map: components above the threshold, weak and thin ones dropped,
// each box grown by area * unclipRatio / perimeter and scaled to the image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textRegions } from '../../src/post/text-regions.ts';

/** A width x height map of `background` with rectangles [x1, x2) x [y1, y2) set to `value`. */
function map(width: number, height: number, rects: Array<[number, number, number, number, number]>, background = 0.01): Float32Array {
  const m = new Float32Array(width * height).fill(background);
  for (const [x1, y1, x2, y2, value] of rects) for (let y = y1; y < y2; y++) m.fill(value, y * width + x1, y * width + x2);
  return m;
}

test('one box per component, grown by area * 1.5 / perimeter, sorted top to bottom', () => {
  // A 20x4 component: grow = 80 * 1.5 / 48 = 2.5.
  const m = map(40, 30, [[10, 20, 30, 24, 0.9], [5, 4, 15, 10, 0.8]]);
  const r = textRegions(m, 40, 30);
  assert.equal(r.length, 2);
  assert.deepEqual([r[0]!.x1, r[0]!.y1, r[0]!.x2, r[0]!.y2], [5 - 2.8125, 4 - 2.8125, 15 + 2.8125, 10 + 2.8125]); // 10x6: 90 / 32
  assert.deepEqual([r[1]!.x1, r[1]!.y1, r[1]!.x2, r[1]!.y2], [7.5, 17.5, 32.5, 26.5]);
  assert.ok(Math.abs(r[1]!.score - 0.9) < 1e-6);
  assert.equal(r[1]!.pixels, 80);
});

test('weak, thin and diagonal-touching components: dropped or merged as DB post-processing does', () => {
  const weak = map(30, 20, [[2, 2, 12, 8, 0.5]]); // above 0.3 but mean below 0.6
  assert.deepEqual(textRegions(weak, 30, 20), []);
  const thin = map(30, 20, [[2, 2, 22, 4, 0.9]]); // 2 rows: thinner than 3
  assert.deepEqual(textRegions(thin, 30, 20), []);
  // Two blocks touching only at a corner are one 8-connected component.
  const diagonal = map(30, 20, [[2, 2, 6, 6, 0.9], [6, 6, 10, 10, 0.9]]);
  assert.equal(textRegions(diagonal, 30, 20).length, 1);
});

test('boxes are clipped to the map, scaled to the image, and read from an offset (image b of a batch)', () => {
  const one = map(16, 8, [[0, 0, 6, 8, 0.95]]);
  const batch = new Float32Array(2 * 16 * 8);
  batch.set(one, 16 * 8);
  const [r] = textRegions(batch, 16, 8, { scaleX: 4, scaleY: 2 }, 16 * 8);
  assert.ok(r);
  assert.equal(r.x1, 0);
  assert.equal(r.y1, 0);
  assert.equal(r.y2, 16); // clipped at the map's 8 rows, times 2
  assert.ok(Math.abs(r.x2 - (6 + 48 * 1.5 / 28) * 4) < 1e-9);
  assert.throws(() => textRegions(one, 16, 8, {}, 1), /needs 128 values from 1/);
});
