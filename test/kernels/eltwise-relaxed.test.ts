// The relaxed-SIMD build of the pooling, elementwise, resize, softmax and copy kernels on Node 20: as
// relaxed.test.ts does for the GEMM, re-runs their suites in a child `node --experimental-wasm-relaxed-simd`
// restricted to that build (relaxed_madd turns the affine, bilinear and exp polynomials into FMAs).
// Where this process already validates relaxed SIMD (Node >= 22), the suites test both builds themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../src/kernels/module.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FLAG = '--experimental-wasm-relaxed-simd';
const SUITES = ['pool', 'eltwise', 'resize', 'softmax', 'copy'].map((s) => `test/kernels/${s}.test.ts`);

test('relaxed build: pooling, elementwise, resize, softmax and copy suites under --experimental-wasm-relaxed-simd', (t) => {
  if (relaxedSimdSupported()) {
    t.skip('this runtime validates relaxed SIMD: the suites already test the relaxed build in-process');
    return;
  }
  const probe = spawnSync(process.execPath, [FLAG, '-e', 'WebAssembly'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    t.skip(`node ${process.version} rejects ${FLAG} (${probe.stderr.trim()}) and has no relaxed SIMD: relaxed build untested`);
    return;
  }
  // Without NODE_TEST_CONTEXT, which would make the nested runner report in the parent's binary protocol.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawnSync(process.execPath, [FLAG, '--import', 'tsx', '--test', '--test-reporter=tap', ...SUITES], {
    cwd: root,
    encoding: 'utf8',
    env: { ...env, FLOWINFER_TEST_SIMD: 'relaxed' },
  });
  const summary = [...child.stdout.matchAll(/^# (tests|pass|fail) (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ') || 'no summary';
  assert.equal(child.status, 0, `relaxed suites failed (${summary}):\n${child.stdout}\n${child.stderr}`);
  assert.match(child.stdout, /^# fail 0$/m);
  assert.match(child.stdout, /relaxed build: average pool/, 'the child did not run the relaxed build');
  t.diagnostic(`child: ${summary}`);
});
