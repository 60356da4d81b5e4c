import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { annotationMismatches, inferShapes, type InputShapes } from '../../src/graph/shapes.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { NodeError, UnsupportedOpsError, UsageError } from '../../src/errors.ts';
import { SKIP_SHARED, sharedParamFiles, topology } from '../helpers/shared.ts';

function inferred(file: string, shapes?: InputShapes): Graph {
  const g = parsePnnxParam(readFileSync(file), file);
  inferShapes(g, defaultRegistry.bindAll(g), shapes);
  return g;
}

const shapeOf = (g: Graph, name: string) => [...g.values.get(name)!.shape!];

test('inferred shapes equal every # annotation in every ../shared model', { skip: SKIP_SHARED }, () => {
  let checked = 0;
  for (const file of sharedParamFiles()) {
    const g = inferred(file);
    assert.deepEqual(annotationMismatches(g), [], file);
    for (const v of g.values.values()) {
      assert.ok(v.shape, `${file}: operand ${v.name} has no inferred shape`);
      if (v.annotation) checked++;
    }
  }
  assert.ok(checked > 500, `only ${checked} annotations compared`);
});

test('ResNet-18 at 1x3x320x320 and at batch 8', { skip: SKIP_SHARED }, () => {
  const file = topology('resnet18_batch1.pnnx.param');
  const big = inferred(file, [[1, 3, 320, 320]]);
  assert.deepEqual(shapeOf(big, '1'), [1, 64, 160, 160]); // 7x7 stride-2 stem
  assert.deepEqual(shapeOf(big, '3'), [1, 64, 80, 80]); // after the max pool
  const last = big.nodes.find((n) => n.type === 'nn.AdaptiveAvgPool2d')!;
  assert.deepEqual([...last.inputs[0]!.shape!], [1, 512, 10, 10]); // 320 / 32
  assert.deepEqual([...last.outputs[0]!.shape!], [1, 512, 1, 1]);
  assert.deepEqual([...big.outputs[0]!.shape!], [1, 1000]);

  const batch = inferred(file, [[8, 3, 224, 224]]);
  assert.deepEqual([...batch.outputs[0]!.shape!], [8, 1000]);
  assert.deepEqual(shapeOf(batch, '1'), [8, 64, 112, 112]);
});

test('YOLOv5s and YOLOv5n at 640x640, batch 1', { skip: SKIP_SHARED }, () => {
  for (const name of ['yolov5s_batch4.pnnx.param', 'yolov5n_small.pnnx.param']) {
    const g = inferred(topology(name), [[1, 3, 640, 640]]);
    const detect = g.nodes.find((n) => n.type === 'models.yolo.Detect')!;
    // Strides 8, 16, 32: 80x80, 40x40, 20x20 maps; 3 anchors each; 85 = 5 + 80 classes.
    assert.deepEqual(detect.inputs.map((v) => v.shape!.slice(2)), [[80, 80], [40, 40], [20, 20]], name);
    assert.deepEqual([...g.outputs[0]!.shape!], [1, 3 * (80 * 80 + 40 * 40 + 20 * 20), 85], name);
  }
});

test('input shapes by name; bad bindings are usage errors', { skip: SKIP_SHARED }, () => {
  const file = topology('mobilenet_v2.pnnx.param');
  assert.deepEqual([...inferred(file, { 0: [2, 3, 160, 160] }).outputs[0]!.shape!], [2, 1000]);
  assert.throws(() => inferred(file, { nope: [1, 3, 224, 224] }), (e: unknown) => e instanceof UsageError && /no model input is named "nope"/.test(e.message));
  assert.throws(() => inferred(file, [[1, 3, 224]]), (e: unknown) => e instanceof UsageError && /annotated \(1,3,224,224\)/.test(e.message));
  assert.throws(() => inferred(file, [[1, 3, 224, 224], [1]]), UsageError);
});

const tiny = (mid: string, shape = '(1,3,8,8)') => `7767517\n3 2\npnnx.Input in 0 1 0 #0=${shape}f32\n${mid}\npnnx.Output out 1 0 1\n`;
const CONV = 'nn.Conv2d c 1 1 0 1 bias=False dilation=(1,1) groups=1 in_channels=3 kernel_size=(3,3) out_channels=4 padding=(1,1) stride=(1,1) @weight=(4,3,3,3)f32';

function inferText(text: string, shapes?: InputShapes): Graph {
  const g = parsePnnxParam(text, 'tiny.pnnx.param');
  inferShapes(g, defaultRegistry.bindAll(g), shapes);
  return g;
}

test('conv output sizes: stride, dilation, same/valid padding, groups', () => {
  const out = (mid: string, shape?: string) => [...inferText(tiny(mid, shape)).values.get('1')!.shape!];
  assert.deepEqual(out(CONV), [1, 4, 8, 8]);
  assert.deepEqual(out(CONV.replace('stride=(1,1)', 'stride=(2,2)')), [1, 4, 4, 4]);
  assert.deepEqual(out(CONV.replace('dilation=(1,1)', 'dilation=(2,2)')), [1, 4, 6, 6]);
  assert.deepEqual(out(CONV.replace('padding=(1,1)', 'padding=same').replace('dilation=(1,1)', 'dilation=(3,3)')), [1, 4, 8, 8]);
  assert.deepEqual(out(CONV.replace('padding=(1,1)', 'padding=valid')), [1, 4, 6, 6]);
  assert.deepEqual(out(CONV, '(3,9,7)'), [4, 9, 7]); // unbatched
  assert.deepEqual(out('nn.Conv2d c 1 1 0 1 bias=True groups=3 in_channels=3 kernel_size=(3,3) out_channels=6 padding=(0,0) stride=(2,2) @bias=(6)f32 @weight=(6,1,3,3)f32'), [1, 6, 3, 3]);
  // Max pool with ceil_mode: an overhanging last window counts only if it starts inside the input.
  assert.deepEqual(out('nn.MaxPool2d p 1 1 0 1 ceil_mode=True kernel_size=(3,3) stride=(2,2) padding=(0,0)', '(1,3,8,8)'), [1, 3, 4, 4]);
  assert.deepEqual(out('nn.MaxPool2d p 1 1 0 1 ceil_mode=False kernel_size=(3,3) stride=(2,2) padding=(0,0)', '(1,3,8,8)'), [1, 3, 3, 3]);
  assert.deepEqual(out('nn.ConvTranspose2d t 1 1 0 1 bias=False in_channels=3 out_channels=2 kernel_size=(3,3) stride=(2,2) padding=(1,1) output_padding=(1,1) @weight=(3,2,3,3)f32'), [1, 2, 16, 16]);
});

test('param and shape problems name the node, the param and its value', () => {
  assert.throws(() => inferText(tiny(CONV.replace('stride=(1,1)', 'stride=(1.5,1)'))), (e: unknown) =>
    e instanceof NodeError && e.message === 'nn.Conv2d node "c" (line 4 of tiny.pnnx.param): param stride=(1.5,1.0): expected 2 integers, e.g. (1,1)');
  assert.throws(() => inferText(tiny(CONV.replace('@weight=(4,3,3,3)', '@weight=(4,3,3,2)'))), /weight @weight=\(4,3,3,2\): expected \(4,3,3,3\) from the params/);
  assert.throws(() => inferText(tiny(CONV.replace(' kernel_size=(3,3)', ''))), /param kernel_size is missing/);
  assert.throws(() => inferText(tiny(CONV), [[1, 5, 8, 8]]), /input \(1,5,8,8\) has 5 channels, expected in_channels=3/);
  assert.throws(() => inferText(tiny(CONV.replace('padding=(1,1)', 'padding=(0,0)')), [[1, 3, 2, 2]]), /too small for kernel \(3,3\).*output would be 0x0/);
  assert.throws(() => inferText(tiny(CONV.replace('padding=(1,1)', 'padding=same').replace('stride=(1,1)', 'stride=(2,2)'))), /padding=same needs stride 1/);
});

test('unsupported op types fail together, listing each type and its nodes', () => {
  const text = `7767517\n5 4\npnnx.Input in 0 1 0\nnn.Frobnicate f1 1 1 0 1\nnn.Frobnicate f2 1 1 1 2\nnn.Twiddle t 1 1 2 3\npnnx.Output out 1 0 3\n`;
  const g = parsePnnxParam(text, 'x');
  assert.throws(() => defaultRegistry.bindAll(g), (e: unknown) => {
    assert.ok(e instanceof UnsupportedOpsError);
    assert.match(e.message, /nn\.Frobnicate: "f1", "f2"/);
    assert.match(e.message, /nn\.Twiddle: "t"/);
    return true;
  });
});
