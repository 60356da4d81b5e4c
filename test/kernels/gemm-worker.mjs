// Worker of threads.test.ts. Plain JavaScript: on Node 20 a worker does not inherit the tsx loader from
// `node --import tsx`. It gets the compiled kernel module (already ABI-checked by the main thread) and the
// shared memory, waits for the start flag, then takes GEMM tiles from the parameter block's atomic counter.
import { parentPort, workerData } from 'node:worker_threads';

const { memory, module, params, start } = workerData;
const { exports } = new WebAssembly.Instance(module, { env: { memory } });
const flag = new Int32Array(memory.buffer, start, 1);
parentPort.postMessage({ ready: true });
Atomics.wait(flag, 0, 0);
parentPort.postMessage({ tiles: exports.f32_gemm_4x8_tiles(params) });
