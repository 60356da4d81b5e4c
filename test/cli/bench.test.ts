// `flowinfer bench`: --json prints exactly the documented keys first; the figures are sane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchCommand } from '../../src/cli/bench.ts';
import { runCli } from './video-support.ts';

test('bench --json: model, batch, threads, inFlight, frames, framesPerSec, p50Ms, p99Ms first', async () => {
  const r = await runCli(['bench', 'zoo:mobilenet_v2', '--size', '64', '--frames', '12', '--batch', '2', '--in-flight', '2', '--threads', '2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(json).slice(0, 8), ['model', 'batch', 'threads', 'inFlight', 'frames', 'framesPerSec', 'p50Ms', 'p99Ms']);
  assert.deepEqual([json.model, json.batch, json.threads, json.inFlight, json.frames], ['zoo:mobilenet_v2', 2, 2, 2, 12]);
  const n = (k: string) => json[k] as number;
  assert.ok(n('framesPerSec') > 0 && n('p50Ms') > 0 && n('p99Ms') >= n('p50Ms'));
  assert.ok(n('cpuCores') > 0 && n('dispatchShare') >= 0 && n('dispatchShare') <= 1);
});

test('bench prints a readable summary on the reference engine too (one thread)', async () => {
  const text = await benchCommand('zoo:mobilenet_v2', { size: '32', frames: 3, inFlight: 1, engine: 'reference' });
  assert.match(text, /^model\s+zoo:mobilenet_v2 at 32x32, batch 1$/m);
  assert.match(text, /^engine\s+reference, 1 thread, 1 in flight$/m);
  assert.match(text, /^latency\s+p50 [\d.]+ ms, p99 [\d.]+ ms/m);
  assert.match(text, /^cpu\s+[\d.]+ cores/m);
  assert.match(text, /^dispatch\s+[\d.]+ % of worker time outside kernels/m);
  await assert.rejects(benchCommand('zoo:mobilenet_v2', { frames: 0 }), /--frames 0: expected a positive integer/);
});
