import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpy, readNpy } from '../../src/format/npy.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { runCommand } from '../../src/cli/run.ts';

const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;

test('flowinfer run prints each output with its shape and a summary', () => {
  const out = execFileSync(process.execPath, [BIN, 'run', 'zoo:resnet18', '--input-shape', '1,3,32,32', '--fill', '0.5'], { encoding: 'utf8' });
  assert.match(out, /^pnnx_output_0  \(1,1000\)  min -?[\d.e+-]+  max -?[\d.e+-]+  mean -?[\d.e+-]+  first \[.*, \.\.\.\]\n$/);
});

test('--json prints the full arrays; --input reads .npy; the same input gives the same output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-'));
  try {
    const x = Tensor.f32([1, 3, 32, 32], Float32Array.from({ length: 3072 }, (_, i) => (i % 17) / 17));
    const file = join(dir, 'x.npy');
    writeFileSync(file, writeNpy(x));
    assert.deepEqual([...readNpy(new Uint8Array(readFileSync(file))).f32], [...x.f32]);
    const a = JSON.parse(await runCommand('zoo:mobilenet_v2', { input: [file], json: true })) as Record<string, { shape: number[]; data: number[] }>;
    const b = JSON.parse(await runCommand('zoo:mobilenet_v2', { input: [file], json: true })) as typeof a;
    assert.deepEqual(a.pnnx_output_0!.shape, [1, 1000]);
    assert.equal(a.pnnx_output_0!.data.length, 1000);
    assert.deepEqual(a, b);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('conflicting input options and unknown zoo models are one-line errors', () => {
  const bad = spawnSync(process.execPath, [BIN, 'run', 'zoo:resnet18', '--fill', '1', '--random', '2'], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^flowinfer: give one of --input, --fill and --random\n$/);
  const zoo = spawnSync(process.execPath, [BIN, 'run', 'zoo:alexnet'], { encoding: 'utf8' });
  assert.equal(zoo.status, 1);
  assert.match(zoo.stderr, /unknown zoo model "zoo:alexnet" \(zoo: zoo:resnet18, zoo:mobilenet_v2, zoo:yolov5s\)/);
});
