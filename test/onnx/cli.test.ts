// `flowinfer export-onnx`: writes a model onnxruntime loads, for the shape asked; refuses with one message
// (exit status 1) listing every node without an ONNX equivalent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomTensor, runOrt } from './helpers.ts';

const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;
const flowinfer = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('export-onnx zoo:mobilenet_v2 --input-shape 2,3,32,32 writes a model onnxruntime runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-onnx-'));
  try {
    const file = join(dir, 'mobilenet_v2.onnx');
    const r = flowinfer('export-onnx', 'zoo:mobilenet_v2', '--input-shape', '2,3,32,32', '--opt-level', '1', '-o', file);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^wrote .*mobilenet_v2\.onnx: \d+ ONNX nodes, \d+ initializers, .*opset 17, opt level 1\ninput pnnx_input_0 \(2,3,32,32\)\noutput pnnx_output_0 \(2,1000\)\n$/);
    const out = await runOrt(new Uint8Array(readFileSync(file)), { pnnx_input_0: randomTensor([2, 3, 32, 32], 1) });
    assert.deepEqual([...out.pnnx_output_0!.shape], [2, 1000]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('export-onnx refuses a graph with inexpressible nodes: one message, every node, exit status 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-onnx-'));
  try {
    const param = join(dir, 'm.pnnx.param');
    writeFileSync(param, [
      '7767517', '4 3',
      'pnnx.Input in0 0 1 x #x=(1,2,8,8)f32',
      'nn.AvgPool2d pool 1 1 x a kernel_size=(2,2) divisor_override=3',
      'pnnx.Expression angle 2 1 a a b expr=atan2(@0,@1)',
      'pnnx.Output out0 1 0 b',
    ].join('\n'));
    const r = flowinfer('export-onnx', param, '-o', join(dir, 'm.onnx'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^flowinfer: cannot export .*m\.pnnx\.param to ONNX: 2 nodes have no ONNX equivalent:/);
    assert.match(r.stderr, /nn\.AvgPool2d node "pool" \(#1, line 4 of .*\): divisor_override=3/);
    assert.match(r.stderr, /pnnx\.Expression node "angle" \(#2, line 5 of .*\): expr=atan2\(@0,@1\): atan2 has no ONNX operator/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
