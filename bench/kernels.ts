// Kernel benchmark: `npm run bench:kernels [-- --rounds N] [-- --shapes 512x512x512,...] [-- --section gemm|conv]`.
//
// 1. On Node 20 without relaxed SIMD, re-runs itself under --experimental-wasm-relaxed-simd so that one run
//    measures both builds (plain only if that flag is refused).
// 2. For each build and shape, runs in interleaved rounds (timing.ts): the SIMD ceiling (12 chains of
//    f32x4 multiply-add: mul+add in the plain build, relaxed_madd in the relaxed one) on 1 thread and on
//    2 worker threads sharing the memory; the packed SGEMM (C = A W^T + bias, M x N x K) on 1 thread (the
//    main thread, one call over all of C) and on 2 workers taking tiles from the atomic counter (each
//    run includes waking the workers and waiting for both: ~20-50 us).
// 3. Reports GFLOP/s, % of the ceiling of the same build and thread count, and the 2T / 1T ratio, all
//    from the best rounds.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { GEMM_NR, GEMM_PARAMS_BYTES, RESERVED_BYTES } from '../src/kernels/abi.ts';
import type { Activation } from '../src/kernels/activation.ts';
import { planGemmTiles, resetGemmTiles, writeGemmParams } from '../src/kernels/gemm.ts';
import {
  compileKernels,
  createKernelMemory,
  instantiateKernels,
  relaxedSimdSupported,
  type SimdVariant,
} from '../src/kernels/module.ts';
import { packGemmWeights, packedGemmFloats } from '../src/kernels/pack.ts';
import { CMD_GEMM_TILES, CMD_PEAK } from './kernels/control.mjs';
import { BenchPool } from './kernels/pool.ts';
import { measure, type Rate } from './kernels/timing.ts';
// convolution kernels
import { benchConvs } from './kernels/conv.ts';

const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';

if (!relaxedSimdSupported() && process.env.FLOWINFER_BENCH_REEXEC === undefined) {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [RELAXED_FLAG, ...process.execArgv, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, FLOWINFER_BENCH_REEXEC: '1' },
  });
  if (child.status === 0) process.exit(0);
  console.log(`(re-running under ${RELAXED_FLAG} failed with status ${child.status}: plain build only)\n`);
}

interface Shape {
  readonly name: string;
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly activation: Activation;
}

const shape = (name: string, m: number, n: number, k: number, activation: Activation = 'none'): Shape => ({ name, m, n, k, activation });

// M x N x K = output pixels x output channels x (input channels * taps); kernels.md section 6.
const SHAPES: Shape[] = [
  shape('square', 256, 256, 256),
  shape('square', 512, 512, 512),
  shape('square', 1024, 1024, 1024),
  shape('resnet18 layer1 3x3', 3136, 64, 576),
  shape('resnet18 layer2 3x3', 784, 128, 1152),
  shape('resnet18 layer3 3x3', 196, 256, 2304),
  shape('resnet18 layer4 3x3', 49, 512, 4608),
  shape('  same + SiLU epilogue', 3136, 64, 576, 'silu'),
  shape('mobilenetv2 1x1 32>16', 12544, 16, 32),
  shape('mobilenetv2 1x1 16>96', 12544, 96, 16, 'relu6'),
  shape('mobilenetv2 1x1 24>144', 3136, 144, 24, 'relu6'),
  shape('mobilenetv2 1x1 64>384', 196, 384, 64, 'relu6'),
  shape('mobilenetv2 1x1 320>1280', 49, 1280, 320, 'relu6'),
];

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const rounds = Number(option('rounds') ?? 15);
const tilesPerThread = option('tiles-per-thread');
const only = option('shapes')?.split(',');
const shapes = only
  ? only.map((s) => {
      const [m, n, k] = s.split('x').map(Number);
      return shape('custom', m!, n!, k!);
    })
  : SHAPES;
const variants: SimdVariant[] = relaxedSimdSupported() ? ['plain', 'relaxed'] : ['plain'];
// convolution kernels: `--section gemm` or `--section conv` runs one part (default both); the conv
// section (bench/kernels/conv.ts: every ResNet-18 / MobileNetV2 convolution) takes `--conv-rounds`.
const sections = (option('section') ?? 'gemm,conv').split(',');
const convRounds = Number(option('conv-rounds') ?? 7);
const convSummaries: string[] = [];

// Arena: one A, W and C of the largest shape, a parameter block and the workers' command block.
const floats = Math.max(...shapes.map((s) => s.m * s.k + packedGemmFloats(s.n, s.k) + s.m * s.n));
const memory = createKernelMemory({ initialPages: Math.ceil((RESERVED_BYTES + floats * 4 + 4096) / 65536) + 1 });
const control = RESERVED_BYTES;
const params = RESERVED_BYTES + 64; // two parameter blocks: 1-thread and 2-thread tile plans
const arena = params + 2 * GEMM_PARAMS_BYTES;

const pct = (x: number, of: number) => `${Math.round((100 * x) / of)}%`.padStart(5);
const gf = (x: number) => x.toFixed(1).padStart(6);

console.log(
  `flowinfer kernels: node ${process.version}, V8 ${process.versions.v8}, builds: ${variants.join(', ')}; ` +
    `load average ${loadavg()[0]!.toFixed(2)} (other processes on the 2 cores lower the numbers); ` +
    `best / median of ${rounds} interleaved rounds, GFLOP/s`,
);

const summary: string[] = [];
for (const variant of sections.includes('gemm') ? variants : []) {
  const module = compileKernels(variant);
  const kernels = instantiateKernels(module, memory, variant).exports;
  const pool = await BenchPool.start(memory, module, control, 2);
  try {
    const iters = 1_000_000; // ~2-3 ms per call, so waking the 2 workers is ~2 % of it
    const peak1 = { run: () => void kernels.f32x4_peak_u12(iters, 0.999999, 1e-6), flop: iters * 96 };
    const peak2 = { run: () => pool.run(CMD_PEAK, iters), flop: 2 * iters * 96 };
    const op = variant === 'plain' ? 'f32x4.mul + f32x4.add' : 'f32x4.relaxed_madd';
    console.log(`\n${variant} build; ceiling = 12 chains of ${op}, measured beside each shape`);
    console.log(
      `${'shape'.padEnd(26)} ${'M x N x K'.padEnd(17)} ${'ceil1T'.padStart(6)} ${'1T'.padStart(6)} ${'med'.padStart(6)} ${'%ceil'.padStart(5)}` +
        ` ${'ceil2T'.padStart(6)} ${'2T'.padStart(6)} ${'med'.padStart(6)} ${'%ceil'.padStart(5)} ${'2T/1T'.padStart(6)}  2T tiles`,
    );
    let ceiling1 = 0;
    let ceiling2 = 0;
    for (const s of shapes) {
      const flop = 2 * s.m * s.n * s.k;
      fill(s);
      const call = gemmCall(s);
      const panels = Math.ceil(s.n / GEMM_NR);
      const tiles = planGemmTiles(s.m, s.n, s.k, 2, tilesPerThread === undefined ? undefined : Number(tilesPerThread));
      const oneParams = params;
      const twoParams = params + GEMM_PARAMS_BYTES;
      writeGemmParams(memory, oneParams, call, planGemmTiles(s.m, s.n, s.k, 1));
      writeGemmParams(memory, twoParams, call, tiles);
      const gemm1 = { run: () => kernels.f32_gemm_4x8(oneParams, 0, s.m, 0, panels), flop };
      const gemm2 = {
        run: () => {
          resetGemmTiles(memory, twoParams);
          pool.run(CMD_GEMM_TILES, twoParams);
        },
        flop,
      };
      const [p1, one, p2, two] = measure([peak1, gemm1, peak2, gemm2], rounds) as [Rate, Rate, Rate, Rate];
      ceiling1 = Math.max(ceiling1, p1.best);
      ceiling2 = Math.max(ceiling2, p2.best);
      console.log(
        `${s.name.padEnd(26)} ${`${s.m}x${s.n}x${s.k}`.padEnd(17)} ${gf(p1.best)} ${gf(one.best)} ${gf(one.median)} ${pct(one.best, p1.best)}` +
          ` ${gf(p2.best)} ${gf(two.best)} ${gf(two.median)} ${pct(two.best, p2.best)} ${`x${(two.best / one.best).toFixed(2)}`.padStart(6)}` +
          `  ${tiles.count} of ${tiles.tileM}x${tiles.tileN * GEMM_NR}`,
      );
    }
    summary.push(`${variant}: ceiling ${ceiling1.toFixed(1)} GFLOP/s on 1 thread, ${ceiling2.toFixed(1)} on 2 (x${(ceiling2 / ceiling1).toFixed(2)})`);
  } finally {
    await pool.close();
  }
}
if (sections.includes('conv')) {
  for (const variant of variants) convSummaries.push(await benchConvs(variant, compileKernels(variant), convRounds));
  console.log(`\nconvolution totals:\n${convSummaries.join('\n')}`);
}
if (summary.length > 0) console.log(`\nbest ceilings of the run: ${summary.join('; ')}`);

function gemmCall(s: Shape) {
  const a = arena;
  const w = a + s.m * s.k * 4;
  const c = w + packedGemmFloats(s.n, s.k) * 4;
  return { a, lda: s.k, w, c, ldc: s.n, m: s.m, n: s.n, k: s.k, activation: s.activation };
}

/** Random A in [-1, 1) and packed random W, so no denormals or NaN slow anything down. */
function fill(s: Shape): void {
  const { a, w } = gemmCall(s);
  const view = new Float32Array(memory.buffer, a, s.m * s.k);
  for (let i = 0; i < view.length; i++) view[i] = 2 * Math.random() - 1;
  const weights = Float32Array.from({ length: s.n * s.k }, () => (2 * Math.random() - 1) / Math.sqrt(s.k));
  const bias = Float32Array.from({ length: s.n }, () => Math.random() - 0.5);
  packGemmWeights(new Float32Array(memory.buffer, w, packedGemmFloats(s.n, s.k)), weights, bias, s.n, s.k);
}
