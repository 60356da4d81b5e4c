// Starts a TypeScript worker: worker threads do not inherit the main thread's tsx loader, so this plain
// ESM file registers it and then imports the module named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
