// Whole zoo models on the references at small inputs: every node's reference runs, outputs have the
// inferred shapes and stay finite; YOLOv5s run at another size than its grids were made for equals the
// model built for that size (the Detect head regenerates its grids).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../src/runtime/load.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { randomTensor } from './support.ts';

async function runOnce(graph: Parameters<typeof loadModel>[0], input: Tensor): Promise<Tensor> {
  const model = await loadModel(graph);
  const outputs = await model.run([input]);
  await model.dispose();
  return Object.values(outputs)[0]!;
}

const finite = (t: Tensor) => t.f32.every(Number.isFinite);

test('ResNet-18 at 2x3x64x64 and MobileNetV2 at 1x3x64x64 on the references', async () => {
  const r = await runOnce(resnet18({ batch: 2, size: 64 }), randomTensor([2, 3, 64, 64], 1));
  assert.deepEqual([...r.shape], [2, 1000]);
  assert.ok(finite(r));
  const m = await runOnce(mobilenetV2({ size: 64 }), randomTensor([1, 3, 64, 64], 2));
  assert.deepEqual([...m.shape], [1, 1000]);
  assert.ok(finite(m));
});

test('YOLOv5s made for 64 px and run at 96 px equals YOLOv5s made for 96 px', async () => {
  const x = randomTensor([1, 3, 96, 96], 3, 0, 1);
  const native = await runOnce(yolov5s({ size: 96 }), x);
  const resized = await runOnce(yolov5s({ size: 64 }), x);
  assert.deepEqual([...native.shape], [1, 3 * (12 * 12 + 6 * 6 + 3 * 3), 85]);
  assert.ok(finite(native));
  assert.deepEqual([...resized.shape], [...native.shape]);
  let worst = 0;
  for (let i = 0; i < native.size; i++) worst = Math.max(worst, Math.abs(native.f32[i]! - resized.f32[i]!));
  assert.ok(worst <= 1e-4, `largest difference ${worst}`);
  // Boxes decode to pixels: centres near the image, sizes positive.
  for (let row = 0; row < native.shape[1]!; row++) {
    const [cx, cy, w, h] = native.f32.subarray(row * 85, row * 85 + 4);
    assert.ok(cx! > -64 && cx! < 160 && cy! > -64 && cy! < 160 && w! > 0 && h! > 0, `row ${row}: ${cx} ${cy} ${w} ${h}`);
  }
});
