// Benchmark worker: instantiates the kernel module (compiled and ABI-checked by the main thread) on the
// shared memory, then sleeps on a command word and runs what it is told. Plain JavaScript because a
// worker does not inherit tsx's loader on Node 20. Command block layout: see control.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { CMD_EXIT, CMD_GEMM_TILES, CMD_PEAK, CTL_ARG, CTL_DONE, CTL_KIND, CTL_SEQ, CTL_WORDS } from './control.mjs';

const { memory, module, control } = workerData;
const kernels = new WebAssembly.Instance(module, { env: { memory } }).exports;
const ctl = new Int32Array(memory.buffer, control, CTL_WORDS);
let seen = Atomics.load(ctl, CTL_SEQ);
parentPort.postMessage('ready');
for (;;) {
  Atomics.wait(ctl, CTL_SEQ, seen);
  seen = Atomics.load(ctl, CTL_SEQ);
  const kind = Atomics.load(ctl, CTL_KIND);
  if (kind === CMD_EXIT) break;
  if (kind === CMD_GEMM_TILES) kernels.f32_gemm_4x8_tiles(ctl[CTL_ARG]);
  else if (kind === CMD_PEAK) kernels.f32x4_peak_u12(ctl[CTL_ARG], 0.999999, 1e-6);
  Atomics.add(ctl, CTL_DONE, 1);
  Atomics.notify(ctl, CTL_DONE);
}
