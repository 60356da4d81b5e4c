import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPnnxFiles } from '../../src/format/pnnx/load.ts';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';

const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;

function stats(a: Float32Array) {
  let sum = 0, sq = 0;
  for (const x of a) { sum += x; sq += x * x; }
  const mean = sum / a.length;
  return { mean, std: Math.sqrt(sq / a.length - mean * mean) };
}

test('init-weights writes a deterministic, loadable .pnnx.bin; another seed gives other weights', { skip: SKIP_SHARED }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-'));
  try {
    const param = topology('resnet18_batch1.pnnx.param');
    const run = (seed: number, out: string) =>
      execFileSync(process.execPath, [BIN, 'init-weights', param, '--seed', String(seed), '-o', join(dir, out)], { encoding: 'utf8' });
    assert.match(run(1, 'a.bin'), /wrote .*a\.bin: 11\.68 M weights \(seed 1\)/);
    run(1, 'b.bin');
    run(2, 'c.bin');
    const a = readFileSync(join(dir, 'a.bin'));
    assert.ok(a.equals(readFileSync(join(dir, 'b.bin'))), 'same seed, same bytes');
    assert.ok(!a.equals(readFileSync(join(dir, 'c.bin'))), 'another seed, other bytes');
    const g = loadPnnxFiles(param, { bin: join(dir, 'a.bin') });
    // He scaling: std = sqrt(2 / fan_in); layer4 convs have fan_in 512 x 9.
    const conv = g.nodes.find((n) => n.type === 'nn.Conv2d' && n.weights.get('weight')!.shape[1] === 512)!;
    const s = stats(conv.weights.get('weight')!.data as Float32Array);
    assert.ok(Math.abs(s.mean) < 0.001 && Math.abs(s.std / Math.sqrt(2 / 4608) - 1) < 0.02, JSON.stringify(s));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('batch-norm statistics get a positive variance', () => {
  const g = parsePnnxParam(`7767517\n3 2\npnnx.Input in 0 1 0 #0=(1,64,4,4)f32\nnn.BatchNorm2d bn 1 1 0 1 affine=True eps=1e-05 num_features=64 @bias=(64)f32 @running_mean=(64)f32 @running_var=(64)f32 @weight=(64)f32\npnnx.Output out 1 0 1\n`, 'bn');
  initWeights(g, defaultRegistry, 7);
  const v = g.nodes[1]!.weights.get('running_var')!.data as Float32Array;
  assert.equal(v.length, 64);
  assert.ok(v.every((x) => x >= 0.5 && x <= 1.5));
  assert.notDeepEqual([...v.slice(0, 4)], [...(g.nodes[1]!.weights.get('weight')!.data as Float32Array).slice(0, 4)]);
});

test('YOLOv5 Detect constants are real grids, anchor grids and strides', { skip: SKIP_SHARED }, () => {
  const g = loadPnnxFiles(topology('yolov5s_batch4.pnnx.param'), { weights: 'none' });
  initWeights(g, defaultRegistry, 1);
  const detect = g.nodes.find((n) => n.type === 'models.yolo.Detect')!;
  const grid = detect.weights.get('pnnx_4')!.data as Float32Array; // (1,3,80,80,2), declared first of the 80x80 pair
  const anchors = detect.weights.get('pnnx_6')!.data as Float32Array;
  const at = (a: number, y: number, x: number) => ((a * 80 + y) * 80 + x) * 2;
  assert.deepEqual([grid[at(2, 5, 7)], grid[at(2, 5, 7) + 1]], [6.5, 4.5]);
  assert.deepEqual([anchors[at(1, 9, 9)], anchors[at(1, 9, 9) + 1]], [16, 30]);
  assert.deepEqual([...(detect.weights.get('pnnx_5')!.data as Float32Array)], [8, 16, 32]);
  const big = detect.weights.get('pnnx_1')!.data as Float32Array; // the 20x20 anchor grid: stride-32 anchors
  assert.deepEqual([big[0], big[1]], [116, 90]);
});
