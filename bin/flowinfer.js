#!/usr/bin/env node
// The `flowinfer` command. flowinfer is written in TypeScript: the command runs build/cli.mjs (bundled at
// install by scripts/build-bundles.mjs) while it is newer than the sources, which starts in a fraction of
// the time; otherwise it runs the sources through tsx's loader.
import { freshBundle } from '../src/bundle-fresh.mjs';

const bundle = freshBundle('cli.mjs');
if (bundle) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
