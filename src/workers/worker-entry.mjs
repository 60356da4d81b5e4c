// piscina's worker file. It loads build/worker.mjs (the worker bundled by scripts/build-bundles.mjs) when
// that bundle is newer than every source file; otherwise it registers tsx and imports the TypeScript
// worker (worker threads do not inherit the main thread's loader). FLOWINFER_BUNDLE=0 forces tsx.
import { freshBundle } from '../bundle-fresh.mjs';

const bundle = freshBundle('worker.mjs');
let worker;
if (bundle) {
  worker = await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import('./worker.ts');
}
export default worker.default;
