// Worker of conv-threads.test.ts. Plain JavaScript: on Node 20 a worker does not inherit the tsx loader.
// Per message it takes tiles of one step from the shared counter (Atomics.add, as the task ring's CAS
// claims them) and runs them, then reports how many it ran.
import { parentPort, workerData } from 'node:worker_threads';

const { memory, module, counter } = workerData;
const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports;
const next = new Int32Array(memory.buffer, counter, 1);
parentPort.on('message', (step) => {
  let ran = 0;
  for (let t = Atomics.add(next, 0, 1); t < step.tiles; t = Atomics.add(next, 0, 1)) {
    if (step.kind === 'range') {
      const u0 = t * step.perTile;
      kernels[step.fn](step.params, u0, Math.min(step.units, u0 + step.perTile));
    } else {
      const tilesN = Math.ceil(step.panels / step.tileN);
      const tm = Math.floor(t / tilesN);
      const tn = t - tm * tilesN;
      kernels.f32_gemm_4x8(step.params, tm * step.tileM, Math.min(step.m, (tm + 1) * step.tileM), tn * step.tileN, Math.min(step.panels, (tn + 1) * step.tileN));
    }
    ran++;
  }
  parentPort.postMessage(ran);
});
