// Tuning aid for TILES_PER_THREAD (src/kernels/gemm.ts): the 2-worker GEMM with several tile plans, in
// interleaved rounds so the plans see the same host noise. Plain build:
//   node --import tsx bench/kernels/tile-plans.ts
// relaxed build:
//   FLOWINFER_SIMD=relaxed node --experimental-wasm-relaxed-simd --import tsx bench/kernels/tile-plans.ts
// Prints best/median GFLOP/s per plan.
import { GEMM_PARAMS_BYTES, RESERVED_BYTES } from '../../src/kernels/abi.ts';
import { planGemmTiles, resetGemmTiles, writeGemmParams } from '../../src/kernels/gemm.ts';
import { chooseVariant, compileKernels, createKernelMemory } from '../../src/kernels/module.ts';
import { packGemmWeights, packedGemmFloats } from '../../src/kernels/pack.ts';
import { CMD_GEMM_TILES } from './control.mjs';
import { BenchPool } from './pool.ts';
import { measure } from './timing.ts';
const variant = chooseVariant(process.env.FLOWINFER_SIMD === undefined ? 'plain' : undefined);
const memory = createKernelMemory({ initialPages: 1024 });
const pool = await BenchPool.start(memory, compileKernels(variant), RESERVED_BYTES, 2);
const tpts = [5, 10, 16, 32]; // tiles per thread
for (const [m, n, k] of [[512, 512, 512], [3136, 64, 576], [784, 128, 1152], [49, 512, 4608], [12544, 96, 16]]) {
  const a = RESERVED_BYTES + 4096, w = a + m * k * 4, c = w + packedGemmFloats(n, k) * 4;
  const aView = new Float32Array(memory.buffer, a, m * k);
  for (let i = 0; i < aView.length; i++) aView[i] = Math.random() - 0.5;
  packGemmWeights(new Float32Array(memory.buffer, w, packedGemmFloats(n, k)), new Float32Array(n * k).map(() => Math.random() - 0.5), undefined, n, k);
  const cases = tpts.map((t, i) => {
    const p = RESERVED_BYTES + 64 + i * GEMM_PARAMS_BYTES;
    writeGemmParams(memory, p, { a, lda: k, w, c, ldc: n, m, n, k }, planGemmTiles(m, n, k, 2, t));
    return { run: () => { resetGemmTiles(memory, p); pool.run(CMD_GEMM_TILES, p); }, flop: 2 * m * n * k };
  });
  const r = measure(cases, 40);
  console.log(`${variant} ${m}x${n}x${k}`.padEnd(24), r.map((x, i) => `tpt${tpts[i]} ${x.best.toFixed(1)}/${x.median.toFixed(1)}`).join('  '));
}
await pool.close();
