// Two worker threads split each convolution step through a shared tile counter, on every path; the
// output matches the reference and every tile ran exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { compileKernels } from '../../src/kernels/module.ts';
import { Arena } from '../../src/tensor/arena.ts';
import type { ConvPath } from '../../src/ops/fast/conv.ts';
import { ConvRig, prepareConvCase, type ConvSpec } from './conv-harness.ts';
import { testVariants } from './helpers.ts';

const base = { batch: 2, mode: 'zeros' as const, alpha: 0, bias: true, residual: true, extra: [3, 1, 2] as const, threads: 2, order: 'forward' as const, activation: 'silu' as const };
const CASES: Array<ConvSpec & { path: ConvPath }> = [
  { ...base, path: 'igemm', cin: 32, cout: 44, groups: 1, h: 23, w: 25, kernel: [3, 3], stride: [1, 1], dilation: [1, 1], padding: [1, 1], seed: 1 },
  { ...base, path: 'igemm', cin: 24, cout: 36, groups: 3, h: 21, w: 19, kernel: [3, 3], stride: [2, 2], dilation: [1, 1], padding: [1, 1], mode: 'reflect', seed: 2 },
  { ...base, path: 'rowtaps', cin: 3, cout: 32, groups: 1, h: 64, w: 62, kernel: [6, 6], stride: [2, 2], dilation: [1, 1], padding: [2, 2], seed: 3 },
  { ...base, path: 'dw', cin: 37, cout: 37, groups: 37, h: 40, w: 33, kernel: [5, 5], stride: [1, 1], dilation: [1, 1], padding: [2, 2], seed: 4 },
  { ...base, path: 'gemm', cin: 40, cout: 52, groups: 1, h: 30, w: 31, kernel: [1, 1], stride: [1, 1], dilation: [1, 1], padding: [0, 0], seed: 5 },
];

for (const variant of testVariants()) {
  test(`${variant} build: 2 workers share every convolution step's tiles`, async () => {
    const rig = new ConvRig(variant);
    // The counter lives above what the cases use: the harness allocates from the bottom of the arena.
    const counter = new Arena(rig.memory).alloc(64 << 20) + (64 << 20) - 64;
    const module = compileKernels(variant);
    const workers = [0, 1].map(() => new Worker(new URL('./conv-worker.mjs', import.meta.url), { workerData: { memory: rig.memory, module, counter } }));
    try {
      for (const s of CASES) {
        const prepared = prepareConvCase(rig, s);
        assert.ok(typeof prepared !== 'string', String(prepared));
        for (let slot = 0; slot < prepared.slotBases.length; slot++) {
          for (const { step, tiles } of prepared.steps) {
            Atomics.store(new Int32Array(rig.memory.buffer, counter, 1), 0, 0);
            const message = step.kind === 'range'
              ? { kind: 'range', fn: step.fn, params: step.params[slot], units: step.units, perTile: step.perTile, tiles }
              : step.kind === 'gemm'
                ? { kind: 'gemm', params: step.params[slot], m: step.m, panels: step.panels, tileM: step.tileM, tileN: step.tileN, tiles }
                : assert.fail(`unexpected step ${step.kind}`);
            const replies = workers.map((w) => once(w, 'message'));
            for (const w of workers) w.postMessage(message);
            const counts = (await Promise.all(replies)).map(([n]) => n as number);
            assert.equal(counts[0]! + counts[1]!, tiles, `${s.path} ${step.label}: tiles per worker ${counts.join(' + ')} of ${tiles}`);
          }
        }
        const failure = prepared.check();
        assert.equal(failure, undefined, failure);
      }
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });
}
