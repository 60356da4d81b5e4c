// Two worker threads split one GEMM through the atomic tile counter in its parameter block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { GEMM_NR, GEMM_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { writeGemmParams } from '../../src/kernels/gemm.ts';
import { compileKernels } from '../../src/kernels/module.ts';
import { packGemmWeights, packedGemmFloats } from '../../src/kernels/pack.ts';
import { checkGemm, prng, testVariants, TestArena, type GemmCase } from './helpers.ts';

for (const variant of testVariants()) {
  test(`${variant} build: 2 workers take every tile exactly once and C matches the reference`, async () => {
    const arena = new TestArena(variant, 256);
    const random = prng(42);
    const [m, n, k] = [129, 77, 65];
    const c: GemmCase = {
      m, n, k, lda: k + 3, ldc: n + 5, activation: 'silu', alpha: 0,
      a: Float32Array.from({ length: m * (k + 3) }, () => 2 * random() - 1),
      w: Float32Array.from({ length: n * k }, () => 2 * random() - 1),
      bias: Float32Array.from({ length: n }, () => random()),
    };
    const a = arena.alloc(c.a.length * 4);
    arena.floats(a, c.a.length).set(c.a);
    const w = arena.alloc(packedGemmFloats(n, k) * 4);
    packGemmWeights(arena.floats(w, packedGemmFloats(n, k)), c.w, c.bias, n, k);
    const out = arena.alloc(m * c.ldc * 4);
    const params = arena.alloc(GEMM_PARAMS_BYTES);
    const start = arena.alloc(64);
    // 1-panel x 4-row tiles: 33 x 10 = 330 tiles, so both workers are busy at once.
    const tiles = { tileM: 4, tileN: 1, count: Math.ceil(m / 4) * Math.ceil(n / GEMM_NR) };
    writeGemmParams(arena.kernels.memory, params, { a, lda: c.lda, w, c: out, ldc: c.ldc, m, n, k, activation: 'silu' }, tiles);

    const module = compileKernels(variant);
    const workers = [0, 1].map(
      () => new Worker(new URL('./gemm-worker.mjs', import.meta.url), {
        workerData: { memory: arena.kernels.memory, module, params, start },
      }),
    );
    try {
      const messages = workers.map((worker) => {
        const done = new Promise<number>((resolve, reject) => {
          worker.on('message', (message: { ready?: true; tiles?: number }) => {
            if (message.tiles !== undefined) resolve(message.tiles);
          });
          worker.once('error', reject);
        });
        return { ready: once(worker, 'message'), done };
      });
      await Promise.all(messages.map((x) => x.ready));
      const flag = new Int32Array(arena.buffer, start, 1);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      const counts = await Promise.all(messages.map((x) => x.done));
      assert.equal(counts[0]! + counts[1]!, tiles.count, `tiles per worker: ${counts.join(' + ')}`);
      const failure = checkGemm(c, arena.floats(out, m * c.ldc), `${variant}, 2 workers`);
      assert.equal(failure, undefined, failure);
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
  });
}
