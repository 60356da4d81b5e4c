// The relaxed-SIMD build of the convolution kernels on Node 20: relaxed SIMD validates only with V8's
// --experimental-wasm-relaxed-simd, so the conv suites run again in a child process restricted to that
// build (as relaxed.test.ts does for the GEMM). Where this process already validates relaxed SIMD
// (Node >= 22), the suites test both builds themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../src/kernels/module.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FLAG = '--experimental-wasm-relaxed-simd';
const SUITES = ['test/kernels/conv.test.ts', 'test/kernels/conv-threads.test.ts'];

test('relaxed build: convolution suites under --experimental-wasm-relaxed-simd', (t) => {
  if (relaxedSimdSupported()) {
    t.skip('this runtime validates relaxed SIMD: the suites already test the relaxed build in-process');
    return;
  }
  const probe = spawnSync(process.execPath, [FLAG, '-e', 'WebAssembly'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    t.skip(`node ${process.version} rejects ${FLAG} (${probe.stderr.trim()}) and has no relaxed SIMD: relaxed build untested`);
    return;
  }
  // Without NODE_TEST_CONTEXT: the parent runner sets it, and it would make the nested `node --test`
  // report in the runner's binary protocol instead of TAP.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawnSync(process.execPath, [FLAG, '--import', 'tsx', '--test', '--test-reporter=tap', ...SUITES], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, FLOWINFER_TEST_SIMD: 'relaxed' },
  });
  const summary = [...child.stdout.matchAll(/^# (tests|pass|fail) (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ') || 'no summary';
  assert.equal(child.status, 0, `relaxed conv suites failed (${summary}):\n${child.stdout}\n${child.stderr}`);
  assert.match(child.stdout, /^# fail 0$/m);
  assert.match(child.stdout, /relaxed build: the dw path/, 'the child did not run the relaxed build');
  t.diagnostic(`child: ${summary}`);
});
