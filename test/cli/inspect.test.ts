import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectCommand } from '../../src/cli/inspect.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';

const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;

interface InspectJson {
  nodes: Array<{ name: string; type: string; outputs: Array<{ name: string; shape: number[] }>; params: number; macs: number }>;
  totals: { nodes: number; params: number; macs: number };
}

test('ResNet-18 at 224: about 11.69 M parameters and 1.82 G multiply-accumulates', { skip: SKIP_SHARED }, () => {
  const j = JSON.parse(inspectCommand(topology('resnet18_batch1.pnnx.param'), { json: true })) as InspectJson;
  assert.equal(j.totals.nodes, 51);
  assert.equal(j.nodes.length, 51);
  // torchvision counts 11,689,512 with batch-norm; folding removes 2 x 4800 BN params and adds 4800 biases.
  assert.equal(j.totals.params, 11_689_512 - 4800);
  assert.ok(Math.abs(j.totals.macs / 1.82e9 - 1) < 0.01, `MACs ${j.totals.macs}`);
  const stem = j.nodes[1]!;
  assert.deepEqual(stem, { name: 'convbn2d_0', type: 'nn.Conv2d', outputs: [{ name: '1', shape: [1, 64, 112, 112] }], params: 64 * 3 * 49 + 64, macs: 64 * 112 * 112 * 3 * 49 });
  assert.equal(j.totals.params, j.nodes.reduce((s, n) => s + n.params, 0));
});

test('the table has one row per node in topological order, then totals; --input-shape rescales', { skip: SKIP_SHARED }, () => {
  const text = inspectCommand(topology('resnet18_batch1.pnnx.param'), { inputShape: [[8, 3, 320, 320]] });
  const lines = text.split('\n');
  assert.match(lines[0]!, /^name\s+type\s+outputs\s+params\s+MACs$/);
  assert.match(lines[2]!, /^pnnx_input_0\s+pnnx\.Input\s+\(8,3,320,320\)/);
  assert.match(text, /fc\s+nn\.Linear\s+\(8,1000\)\s+513\.00 K/);
  assert.match(lines[lines.length - 1]!, /^51 nodes, 11\.68 M parameters \(11684712\), 29\.\d\d G multiply-accumulates$/);
});

test('--dot writes a Graphviz graph; bad input is one clear line and exit 1', { skip: SKIP_SHARED }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-'));
  try {
    const dot = join(dir, 'g.dot');
    execFileSync(process.execPath, [BIN, 'inspect', topology('mobilenet_v2.pnnx.param'), '--dot', dot], { encoding: 'utf8' });
    const text = readFileSync(dot, 'utf8');
    assert.match(text, /^digraph flowinfer \{/);
    assert.equal((text.match(/ -> /g) ?? []).length, 101 + 10); // one edge per operand use: a chain plus 10 residual adds
    const bad = spawnSync(process.execPath, [BIN, 'inspect', join(dir, 'missing.pnnx.param')], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /^flowinfer: .*missing\.pnnx\.param/);
    assert.doesNotMatch(bad.stderr, /at .*\.ts:\d+/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
