// The relaxed-SIMD build on Node 20: relaxed SIMD validates only with V8's --experimental-wasm-relaxed-simd,
// which cannot be turned on for a running process's workers from here, so this runs the kernel suites
// again in a child `node --experimental-wasm-relaxed-simd --import tsx --test` restricted to that build.
// Where this process already validates relaxed SIMD (Node >= 22), the suites test both builds themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../src/kernels/module.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FLAG = '--experimental-wasm-relaxed-simd';
const SUITES = ['test/kernels/gemm.test.ts', 'test/kernels/exp.test.ts', 'test/kernels/threads.test.ts'];

test('relaxed build: GEMM, exp and 2-worker suites under --experimental-wasm-relaxed-simd', (t) => {
  if (relaxedSimdSupported()) {
    t.skip('this runtime validates relaxed SIMD: the suites already test the relaxed build in-process');
    return;
  }
  const probe = spawnSync(process.execPath, [FLAG, '-e', 'WebAssembly'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    t.skip(`node ${process.version} rejects ${FLAG} (${probe.stderr.trim()}) and has no relaxed SIMD: relaxed build untested`);
    return;
  }
  // Without NODE_TEST_CONTEXT: set by the parent runner, it makes a nested `node --test` report in the
  // runner's binary protocol instead of TAP.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawnSync(process.execPath, [FLAG, '--import', 'tsx', '--test', '--test-reporter=tap', ...SUITES], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, FLOWINFER_TEST_SIMD: 'relaxed' },
  });
  const summary = [...child.stdout.matchAll(/^# (tests|pass|fail) (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ') || 'no summary';
  assert.equal(child.status, 0, `relaxed suites failed (${summary}):\n${child.stdout}\n${child.stderr}`);
  assert.match(child.stdout, /^# fail 0$/m);
  assert.match(child.stdout, /relaxed build: GEMM \+ silu/, 'the child did not run the relaxed build');
  t.diagnostic(`child: ${summary}`);
});
