// The relaxed-SIMD build on Node 20: relaxed SIMD validates only with V8's --experimental-wasm-relaxed-simd,
// which cannot be turned on for a running process's workers from here, so kernel suites run again in a
// child `node --experimental-wasm-relaxed-simd --import tsx --test` restricted to that build
// (FLOWINFER_TEST_SIMD=relaxed). Where this process already validates relaxed SIMD (Node >= 22), the
// suites test both builds themselves and the child is skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { relaxedSimdSupported } from '../../src/kernels/module.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FLAG = '--experimental-wasm-relaxed-simd';

/** A test that runs `suites` in the child; `marker` must appear in its output (proof it ran that build). */
export function relaxedSuites(name: string, suites: readonly string[], marker: RegExp): void {
  test(`relaxed build: ${name} under ${FLAG}`, (t) => {
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
    const child = spawnSync(process.execPath, [FLAG, '--import', 'tsx', '--test', '--test-reporter=tap', ...suites], {
      cwd: root,
      encoding: 'utf8',
      env: { ...env, FLOWINFER_TEST_SIMD: 'relaxed' },
    });
    const summary = [...child.stdout.matchAll(/^# (tests|pass|fail) (\d+)$/gm)].map((m) => `${m[1]} ${m[2]}`).join(', ') || 'no summary';
    assert.equal(child.status, 0, `relaxed suites failed (${summary}):\n${child.stdout}\n${child.stderr}`);
    assert.match(child.stdout, /^# fail 0$/m);
    assert.match(child.stdout, marker, 'the child did not run the relaxed build');
    t.diagnostic(`child: ${summary}`);
  });
}
