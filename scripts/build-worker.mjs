// Bundles the worker (src/workers/worker.ts and everything it imports) into build/worker.mjs, so that a
// worker thread starts by loading one plain ES module instead of registering tsx and transpiling ~100
// files (measured here: about 0.6 s of CPU per worker, per engine). worker-entry.mjs uses the bundle
// only while it is newer than every source file, and falls back to tsx otherwise.
// Runs from the `prepare` script after the kernels; prints one line.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
await build({
  entryPoints: [`${root}src/workers/worker.ts`],
  outfile: `${root}build/worker.mjs`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
});
console.log(`build-worker: build/worker.mjs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
