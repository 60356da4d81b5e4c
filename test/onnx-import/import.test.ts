// The importer as a whole: a model with dynamic dims and shape arithmetic (Shape, Gather, Concat, Reshape
// with 0 and -1) imports shape-agnostic and runs at other batch sizes and image sizes; loadModel takes an
// .onnx path; unsupported ops and attributes fail at load in one error naming nodes, op types and opset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attr } from '../../src/format/onnx/builder.ts';
import { importOnnx, OnnxImportError, OnnxModelError } from '../../src/format/onnx/import/index.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { checkModel, onnxModel, randomInput } from './models.ts';

/** x (N,3,H,W) → conv → (a) pooled, flattened by a shape computed at run time, a linear layer, softmax;
 *  (b) Reshape(0, 0, -1) of the feature map, averaged over its last dim. */
const dynamic = onnxModel({
  opset: 13,
  inputs: [{ name: 'x', dims: ['N', 3, 'H', 'W'] }],
  outputs: ['y', 'z'],
  build: (b, w) => {
    const conv = b.op('Conv', ['x', w([8, 3, 3, 3]), w([8])], { pads: attr.ints([1, 1, 1, 1]), strides: attr.ints([2, 2]) }, 'conv');
    const relu = b.op('Relu', [conv], {}, 'relu');
    const pooled = b.op('GlobalAveragePool', [relu], {}, 'gap');
    const n = b.op('Unsqueeze', [b.op('Gather', [b.op('Shape', [pooled], {}, 'shape'), b.initializer('zero', 'i64', [], BigInt64Array.of(0n))], { axis: attr.int(0) }, 'n'), b.i64('ax', [0])], {}, 'n1');
    const flat = b.op('Reshape', [pooled, b.op('Concat', [n, b.i64('rest', [-1])], { axis: attr.int(0) }, 'target')], {}, 'flat');
    b.op('Softmax', [b.op('MatMul', [flat, w([8, 5])], {}, 'fc')], { axis: attr.int(-1) }, 'softmax', 'y');
    const map = b.op('Reshape', [relu, b.i64('keep', [0, 0, -1])], {}, 'map');
    b.op('ReduceMean', [map], { axes: attr.ints([2]), keepdims: attr.int(0) }, 'mean', 'z');
  },
});

test('dynamic batch, height and width: imported shape-agnostic, run at three sizes on both engines', async (t) => {
  const runs = [[randomInput([1, 3, 32, 40], 1)], [randomInput([2, 3, 48, 24], 2)], [randomInput([3, 3, 16, 16], 3)]];
  const imported = await checkModel(t, dynamic, { runs, expect: ['Tensor.reshape', 'nn.Linear'] });
  assert.deepEqual(imported.specialised, [], 'every value stays shape-agnostic');
  assert.deepEqual(imported.declared, [{ name: 'x', dims: ['N', 3, 'H', 'W'] }]);
  const types = imported.graph.nodes.map((n) => n.type);
  assert.ok(!types.includes('pnnx.Attribute'), `shape arithmetic is folded away: ${types.join(', ')}`);
});

test('loadModel takes an .onnx path; dynamic dims default to batch 1 and 224 until a run binds them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-onnx-'));
  try {
    const file = join(dir, 'dynamic.onnx');
    writeFileSync(file, dynamic);
    const model = await loadModel(file, { engine: 'reference' });
    try {
      assert.deepEqual(model.inputs.map((i) => [i.name, [...i.shape]]), [['x', [1, 3, 224, 224]]]);
      const out = await model.run(randomInput([2, 3, 20, 30], 4));
      assert.deepEqual([...out.y!.shape], [2, 5]);
      assert.deepEqual([...out.z!.shape], [2, 8]);
    } finally {
      await model.dispose();
    }
    const bound = await loadModel(file, { engine: 'reference', inputShape: [[4, 3, 64, 32]] });
    assert.deepEqual([...bound.inputs[0]!.shape], [4, 3, 64, 32]);
    await bound.dispose();
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('every unsupported op or attribute fails the load together, naming node, op type and opset', () => {
  const bytes = onnxModel({
    opset: 13,
    inputs: [{ name: 'x', dims: [1, 2, 4, 4] }],
    outputs: ['y'],
    build: (b, w) => {
      const a = b.op('Conv', ['x', w([2, 2, 1, 1])], { auto_pad: attr.string('BOGUS') }, 'conv');
      const c = b.op('NonMaxSuppression', [a], {}, 'nms');
      const r = b.op('Resize', ['x', b.f32('roi', [8], [0, 0, 0, 0, 1, 1, 1, 1]), b.f32('s', [4], [1, 1, 1, 1])], { coordinate_transformation_mode: attr.string('tf_crop_and_resize') }, 'resize');
      const s = b.op('Softmax', ['x'], { axis: attr.int(1), frobnicate: attr.int(3) }, 'softmax');
      // Fed by the failed Conv, this Relu cannot be checked: the error says so.
      const after = b.op('Relu', [a], {}, 'after');
      b.op('Sum', [c, r, s, after], {}, 'sum', 'y');
    },
  });
  assert.throws(() => importOnnx(bytes, { file: 'bad.onnx' }), (e: unknown) => {
    assert.ok(e instanceof OnnxImportError, String(e));
    const m = e.message;
    assert.match(m, /cannot import bad\.onnx \(ONNX opset 13\): 4 nodes cannot be translated/);
    assert.match(m, /Conv node "conv:Conv#node": auto_pad=BOGUS/);
    assert.match(m, /NonMaxSuppression node "nms:NonMaxSuppression#node": no converter for this operator/);
    assert.match(m, /Resize node "resize:Resize#node": .*tf_crop_and_resize/);
    assert.match(m, /Softmax node "softmax:Softmax#node": attribute frobnicate not supported/);
    assert.match(m, /2 nodes fed by these were not checked/);
    assert.deepEqual(e.problems.map((p) => p.opType), ['Conv', 'NonMaxSuppression', 'Resize', 'Softmax']);
    return true;
  });
});

test('models outside opsets 6 to 21, with non-float inputs, or not ONNX at all are refused with the reason', () => {
  const identity = (opset: number) => onnxModel({ opset, inputs: [{ name: 'x', dims: [2] }], outputs: ['y'], build: (b) => b.op('Relu', ['x'], {}, 'r', 'y') });
  assert.throws(() => importOnnx(identity(5), { file: 'old.onnx' }), (e: unknown) => e instanceof OnnxModelError && /opset 5 is not supported \(the importer reads opsets 6 to 21\)/.test(e.message));
  assert.throws(() => importOnnx(identity(22)), /opset 22 is not supported/);
  assert.doesNotThrow(() => importOnnx(identity(6)));
  assert.throws(() => importOnnx(Uint8Array.of(1, 2, 3, 4, 5), { file: 'junk.onnx' }), (e: unknown) => e instanceof OnnxModelError && /junk\.onnx: not an ONNX model/.test(e.message));
});
