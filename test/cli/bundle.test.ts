// bin/flowinfer.js runs build/cli.mjs while it is fresh and the sources through tsx otherwise: both give
// the same command, and an outdated or missing bundle is never used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { freshBundle } from '../../src/bundle-fresh.mjs';

const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;
const help = (env: Record<string, string>) => spawnSync(process.execPath, [BIN, 'inspect', '--help'], { encoding: 'utf8', env: { ...process.env, ...env } });

test('the bundled and the TypeScript command print the same help', () => {
  const sources = help({ FLOWINFER_BUNDLE: '0' });
  const either = help({});
  assert.equal(sources.status, 0, sources.stderr);
  assert.equal(either.status, 0, either.stderr);
  assert.match(sources.stdout, /Usage: flowinfer inspect \[options\] <model>/);
  assert.equal(either.stdout, sources.stdout);
});

test('freshBundle refuses a missing bundle and obeys FLOWINFER_BUNDLE=0', () => {
  assert.equal(freshBundle('no-such-bundle.mjs'), undefined);
  const saved = process.env.FLOWINFER_BUNDLE;
  process.env.FLOWINFER_BUNDLE = '0';
  try {
    assert.equal(freshBundle('cli.mjs'), undefined);
  } finally {
    if (saved === undefined) delete process.env.FLOWINFER_BUNDLE;
    else process.env.FLOWINFER_BUNDLE = saved;
  }
});
