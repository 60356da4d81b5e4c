// piscina's worker file. It loads build/worker.mjs (the worker bundled by scripts/build-worker.mjs) when
// that bundle is newer than every source file; otherwise it registers tsx and imports the TypeScript
// worker (worker threads do not inherit the main thread's loader). FLOWINFER_WORKER_BUNDLE=0 forces tsx.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../../build/worker.mjs', import.meta.url));
const sources = fileURLToPath(new URL('..', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const fresh = process.env.FLOWINFER_WORKER_BUNDLE !== '0' && existsSync(bundle) && statSync(bundle).mtimeMs >= newestSource(sources);
let worker;
if (fresh) {
  worker = await import('../../build/worker.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import('./worker.ts');
}
export default worker.default;
