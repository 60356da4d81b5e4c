// Bundles the TypeScript entry points into plain ES modules, so that nothing has to register tsx and
// transpile ~100 files at start (measured here: about 0.6 s of CPU per worker, per engine, and ~0.8 s for
// every `flowinfer` command):
//   build/worker.mjs  src/workers/worker.ts and everything it imports (loaded by src/workers/worker-entry.mjs)
//   build/cli.mjs     src/cli/main.ts (loaded by bin/flowinfer.js); packages stay external imports
// Both entry points use a bundle only while it is newer than every source file (src/bundle-fresh.mjs).
// Runs from the `prepare` script after the kernels; prints one line.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const started = performance.now();
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'error' };
await Promise.all([
  build({ ...common, entryPoints: [`${root}src/workers/worker.ts`], outfile: `${root}build/worker.mjs` }),
  build({ ...common, entryPoints: [`${root}src/cli/main.ts`], outfile: `${root}build/cli.mjs`, packages: 'external' }),
]);
console.log(`build-bundles: build/worker.mjs and build/cli.mjs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
