// piscina's worker file: worker threads do not inherit the main thread's tsx loader, so register it here
// and hand piscina the TypeScript worker's handler.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./worker.ts');
export default worker.default;
