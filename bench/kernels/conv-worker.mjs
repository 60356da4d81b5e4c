// Convolution benchmark worker (conv-pool.ts): instantiates the kernels on the shared memory and, per
// command, takes tiles of one step from the shared counter (as the engine's workers claim them) beside
// the main thread. Between commands it polls, and sleeps (Atomics.wait) only after SPIN_POLLS, like the
// engine's serve loop, so back-to-back steps pay no wake-up. Plain JavaScript: a worker does not inherit
// tsx's loader on Node 20.
//
// Command block (int32 words): 0 SEQ (bumped per command), 1 KIND (0 exit, 1 range, 2 gemm, 3 ceiling),
// 2 DONE (the worker sets 1 when it finds no tile left), 3 NEXT (tile counter), 4.. the step's numbers.
import { parentPort, workerData } from 'node:worker_threads';

const SPIN_POLLS = 200000;
const { memory, module, control, functions } = workerData;
const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports;
const ctl = new Int32Array(memory.buffer, control, 16);
let seen = Atomics.load(ctl, 0);
parentPort.postMessage('ready');
for (;;) {
  for (let i = 0; Atomics.load(ctl, 0) === seen; i++) {
    if (i >= SPIN_POLLS) {
      Atomics.wait(ctl, 0, seen);
      i = 0;
    }
  }
  seen = Atomics.load(ctl, 0);
  const kind = Atomics.load(ctl, 1);
  if (kind === 0) break;
  const [params, tiles, a, b, c, d] = [ctl[4], ctl[5], ctl[6], ctl[7], ctl[8], ctl[9]];
  if (kind === 3) {
    kernels.f32x4_peak_u12(params, 0.999999, 1e-6);
  } else if (kind === 1) {
    // range: a = kernel index, b = units, c = units per tile
    const fn = kernels[functions[a]];
    for (let t = Atomics.add(ctl, 3, 1); t < tiles; t = Atomics.add(ctl, 3, 1)) {
      const u0 = t * c;
      fn(params, u0, Math.min(b, u0 + c));
    }
  } else {
    // gemm: a = m, b = panels, c = tileM, d = tileN
    const tilesN = Math.ceil(b / d);
    for (let t = Atomics.add(ctl, 3, 1); t < tiles; t = Atomics.add(ctl, 3, 1)) {
      const tm = Math.floor(t / tilesN);
      const tn = t - tm * tilesN;
      kernels.f32_gemm_4x8(params, tm * c, Math.min(a, (tm + 1) * c), tn * d, Math.min(b, (tn + 1) * d));
    }
  }
  Atomics.store(ctl, 2, 1);
}
