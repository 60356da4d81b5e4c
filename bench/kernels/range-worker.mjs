// Range-kernel benchmark worker: instantiates the kernel module (compiled and ABI-checked by the main
// thread) on the shared memory, and for each range command claims tiles beside the main thread
// (range-control.mjs), calling fn(params, u0, u1). Between commands it polls first and sleeps
// (Atomics.wait) only after SPIN_POLLS, like the engine's serve loop, so back-to-back commands find it
// awake. Plain JavaScript: a worker does not inherit tsx's loader on Node 20.
import { parentPort, workerData } from 'node:worker_threads';
import { RCMD_EXIT, RC_CLAIM, RC_FINISHED, RC_FN, RC_KIND, RC_PARAMS, RC_PER_TILE, RC_SEQ, RC_TILES, RC_UNITS, RC_WORDS } from './range-control.mjs';

const SPIN_POLLS = 100000;
const { memory, module, control, names } = workerData;
const exports = new WebAssembly.Instance(module, { env: { memory } }).exports;
const kernels = names.map((name) => exports[name]);
const ctl = new Int32Array(memory.buffer, control, RC_WORDS);
let seen = Atomics.load(ctl, RC_SEQ);
parentPort.postMessage('ready');
for (;;) {
  for (let i = 0; Atomics.load(ctl, RC_SEQ) === seen; i++) {
    if (i >= SPIN_POLLS) {
      Atomics.wait(ctl, RC_SEQ, seen);
      i = 0;
    }
  }
  seen = Atomics.load(ctl, RC_SEQ);
  if (Atomics.load(ctl, RC_KIND) === RCMD_EXIT) break;
  const tag = (seen & 0xffff) << 16;
  const fn = kernels[Atomics.load(ctl, RC_FN)];
  const params = Atomics.load(ctl, RC_PARAMS);
  const units = Atomics.load(ctl, RC_UNITS);
  const perTile = Atomics.load(ctl, RC_PER_TILE);
  const tiles = Atomics.load(ctl, RC_TILES);
  for (;;) {
    const claim = Atomics.load(ctl, RC_CLAIM);
    const tile = claim & 0xffff;
    if ((claim & ~0xffff) !== tag || tile >= tiles) break;
    if (Atomics.compareExchange(ctl, RC_CLAIM, claim, claim + 1) !== claim) continue;
    fn(params, tile * perTile, Math.min(units, (tile + 1) * perTile));
    Atomics.add(ctl, RC_FINISHED, 1);
  }
}
