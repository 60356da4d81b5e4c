// Boxes, IoU and class-aware NMS against cases worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { iou, scaleBoxes, xywhToXyxy, type Detection } from '../../src/post/boxes.ts';
import { nms } from '../../src/post/nms.ts';

const det = (x1: number, y1: number, x2: number, y2: number, score: number, classId = 0): Detection => ({ x1, y1, x2, y2, score, classId });

test('xywh to corners', () => {
  assert.deepEqual(xywhToXyxy(50, 40, 20, 10), { x1: 40, y1: 35, x2: 60, y2: 45 });
});

test('IoU: identical 1, disjoint 0, touching 0, half-overlapping squares 1/3, nested 1/4', () => {
  const a = det(0, 0, 10, 10, 1);
  assert.equal(iou(a, a), 1);
  assert.equal(iou(a, det(20, 20, 30, 30, 1)), 0);
  assert.equal(iou(a, det(10, 0, 20, 10, 1)), 0); // shares an edge only
  // (0..10) and (5..15) in x, same y: intersection 50, union 150.
  assert.equal(iou(a, det(5, 0, 15, 10, 1)), 50 / 150);
  // A 5x5 box inside a 10x10 one: 25 / 100.
  assert.equal(iou(a, det(0, 0, 5, 5, 1)), 0.25);
  assert.equal(iou(det(3, 3, 3, 3, 1), det(3, 3, 3, 3, 1)), 0); // empty boxes
});

test('NMS keeps the best of overlapping boxes of one class, best first', () => {
  const boxes = [
    det(0, 0, 10, 10, 0.6),
    det(1, 0, 11, 10, 0.9), // IoU with the first: 90 / 110 = 0.818 > 0.45
    det(5, 0, 15, 10, 0.8), // IoU with the second: 60 / 140 = 0.43 <= 0.45: kept
    det(50, 50, 60, 60, 0.3),
  ];
  assert.deepEqual(nms(boxes, { iouThreshold: 0.45 }), [boxes[1], boxes[2], boxes[3]]);
  // A lower threshold suppresses the third too.
  assert.deepEqual(nms(boxes, { iouThreshold: 0.4 }), [boxes[1], boxes[3]]);
});

test('NMS is class-aware: an overlapping box of another class stays', () => {
  const boxes = [det(0, 0, 10, 10, 0.9, 0), det(0, 0, 10, 10, 0.8, 1), det(0, 0, 10, 10, 0.7, 0)];
  assert.deepEqual(nms(boxes), [boxes[0], boxes[1]]);
});

test('NMS stops at maxDetections; equal scores keep input order; IoU equal to the threshold is kept', () => {
  const boxes = Array.from({ length: 10 }, (_, i) => det(i * 20, 0, i * 20 + 10, 10, 0.5));
  assert.deepEqual(nms(boxes, { maxDetections: 3 }), boxes.slice(0, 3));
  // Overlap of exactly 0.5: (0..10) vs (0..10)x(0..5) nested: 50 / 100.
  const half = [det(0, 0, 10, 10, 0.9), det(0, 0, 10, 5, 0.8)];
  assert.equal(nms(half, { iouThreshold: 0.5 }).length, 2);
  assert.equal(nms(half, { iouThreshold: 0.49 }).length, 1);
  assert.deepEqual(nms([]), []);
});

test('scaling boxes to the picture stretches each axis and clips to it', () => {
  const [b] = scaleBoxes([det(-4, 10, 40, 70, 0.5)], 2, 0.5, 64, 30);
  assert.deepEqual(b, { x1: 0, y1: 5, x2: 64, y2: 30, score: 0.5, classId: 0 });
});
