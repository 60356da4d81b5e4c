// YOLOv5 output decoding, classifier top-k and the post-processor, on outputs written by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COCO_CLASSES } from '../../src/post/coco.ts';
import { probabilities, topK } from '../../src/post/classify.ts';
import { decodeYolo, detectBoxes } from '../../src/post/yolo.ts';
import { PostProcessor, outputKind } from '../../src/post/summarize.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

// Rows of (cx, cy, w, h, objectness, class 0, class 1, class 2): no = 8.
const ROWS = [
  [50, 50, 20, 10, 0.9, 0.1, 0.8, 0.3], // conf 0.72, class 1, corners (40,45)-(60,55)
  [52, 50, 20, 10, 0.8, 0.1, 0.7, 0.2], // conf 0.56, class 1, overlaps the first: IoU 16*10 / (200+200-160) = 0.667
  [52, 50, 20, 10, 0.8, 0.6, 0.1, 0.2], // conf 0.48, class 0: same place, other class
  [10, 10, 4, 4, 0.2, 0.9, 0.9, 0.9], //   objectness 0.2 <= 0.25: gone before the classes are looked at
  [90, 90, 8, 8, 0.5, 0.4, 0.5, 0.3], //   conf 0.5 x 0.5 = 0.25: not above the threshold
  [90, 90, 8, 8, 0.5, 0.4, 0.3, 0.52], //  conf 0.26, class 2
];
const data = Float32Array.from(ROWS.flat());

test('decoding: objectness x best class score above the threshold, corners from centre and size', () => {
  const dets = decodeYolo(data, ROWS.length, 8);
  assert.equal(dets.length, 4);
  const [a, , c, d] = dets;
  assert.deepEqual({ ...a, score: Number(a!.score.toFixed(6)) }, { x1: 40, y1: 45, x2: 60, y2: 55, score: 0.72, classId: 1 });
  assert.equal(c!.classId, 0);
  assert.ok(Math.abs(c!.score - 0.48) < 1e-6);
  assert.equal(d!.classId, 2);
  assert.deepEqual([d!.x1, d!.y1, d!.x2, d!.y2], [86, 86, 94, 94]);
});

test('decoding then class-aware NMS; batch images are read at their own offset', () => {
  const boxes = detectBoxes(data, ROWS.length, 8);
  assert.deepEqual(boxes.map((b) => b.classId), [1, 0, 2]);
  assert.ok(Math.abs(boxes[0]!.score - 0.72) < 1e-6);
  // Image 1 of a batch of 2 holds only the last row's box (the rest has objectness 0).
  const batch = new Float32Array(2 * data.length);
  batch.set(data.subarray(5 * 8), data.length + 5 * 8);
  assert.deepEqual(detectBoxes(batch, ROWS.length, 8, 1).map((b) => b.classId), [2]);
  assert.deepEqual(detectBoxes(batch, ROWS.length, 8, 0), []);
  assert.equal(detectBoxes(data, ROWS.length, 8, 0, { confThreshold: 0.6 }).length, 1);
  assert.throws(() => decodeYolo(data, 8, 5), /5 \+ classes/);
});

test('probabilities: softmax of logits (stable at +-1000), a distribution kept as it is', () => {
  const p = probabilities(Float32Array.from([1000, 0, -1000]));
  assert.deepEqual([...p], [1, 0, 0]);
  const q = probabilities(Float32Array.from([0, Math.log(3)]));
  assert.ok(Math.abs(q[0]! - 0.25) < 1e-7 && Math.abs(q[1]! - 0.75) < 1e-7);
  assert.deepEqual([...probabilities(Float32Array.from([0.25, 0.75]))], [0.25, 0.75]);
});

test('top-k: best first, ties by class number, k larger than the classes', () => {
  assert.deepEqual(topK([0.1, 0.5, 0.2, 0.5, 0.05], 3), [{ classId: 1, score: 0.5 }, { classId: 3, score: 0.5 }, { classId: 2, score: 0.2 }]);
  assert.equal(topK([1, 2], 5).length, 2);
});

test('output kinds, COCO labels for 80-class detectors, boxes in picture pixels', () => {
  assert.deepEqual(outputKind([1, 252, 85]), { kind: 'detect', rows: 252, no: 85, classes: 80 });
  assert.deepEqual(outputKind([4, 1000]), { kind: 'classify', classes: 1000 });
  assert.deepEqual(outputKind([1, 16, 8, 8]), { kind: 'raw' });
  assert.equal(COCO_CLASSES.length, 80);
  assert.equal(COCO_CLASSES[0], 'person');
  assert.equal(COCO_CLASSES[79], 'toothbrush');
  assert.equal(new Set(COCO_CLASSES).size, 80);

  // 3 classes: no labels unless given; the picture is twice the model input in width.
  const post = new PostProcessor([{ name: 'out', shape: [1, ROWS.length, 8], dtype: 'f32' }], { labels: ['cat', 'dog', 'bird'] });
  const r = post.image({ out: Tensor.f32([1, ROWS.length, 8], data) }, 0, { inputWidth: 100, inputHeight: 100, width: 200, height: 100 });
  assert.equal(r.boxes!.length, 3);
  assert.deepEqual({ ...r.boxes![0]!, score: 0 }, { x1: 80, y1: 45, x2: 120, y2: 55, score: 0, classId: 1, label: 'dog' });

  const cls = new PostProcessor([{ name: 'logits', shape: [2, 4], dtype: 'f32' }], { top: 2 });
  const out = { logits: Tensor.f32([2, 4], [0, 0, 0, 0, 5, 1, 9, 2]) };
  const second = cls.image(out, 1, { inputWidth: 1, inputHeight: 1, width: 1, height: 1 });
  assert.deepEqual(second.top!.map((s) => s.classId), [2, 0]);
  assert.equal(second.top![0]!.label, undefined);
});
