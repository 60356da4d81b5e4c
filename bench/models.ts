// Whole-model benchmark of the fast engine: ResNet-18 and MobileNetV2 at 224x224 (seeded weights from
// src/zoo), latency at batch 1 and images/s at batch 8, with 1 and 2 worker threads, the share of frame
// time not spent in kernels, and latency at every optimisation level.
//
//   npm run bench:models [-- --runs 20 --models resnet18,mobilenet_v2 --levels]
//
// Non-kernel share: 1 - (worker time inside kernels, summed over threads) / (wall time x threads). It counts
// dispatch, the main thread's bookkeeping, and any time a worker waits for the other (load imbalance).

import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { loadModel } from '../src/runtime/load.ts';
import type { Graph } from '../src/graph/graph.ts';
import { summarize } from '../src/graph/summary.ts';
import { defaultRegistry } from '../src/ops/registry.ts';
import { inferShapes } from '../src/graph/shapes.ts';
import { mobilenetV2, resnet18 } from '../src/zoo/index.ts';
import { SeededRandom } from '../src/tensor/random.ts';
import { Tensor } from '../src/tensor/tensor.ts';
import { numel } from '../src/tensor/shape.ts';
import { percentile } from '../src/stream/stats.ts';
import type { FastEngineStats } from '../src/runtime/fast/engine.ts';
import type { OptLevel } from '../src/graph/passes/index.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    models: { type: 'string', default: 'resnet18,mobilenet_v2' },
    levels: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const BUILDERS: Record<string, (o: { batch?: number; size?: number }) => Graph> = { resnet18, mobilenet_v2: mobilenetV2 };

function input(batch: number): Tensor {
  const shape = [batch, 3, 224, 224];
  const data = new Float32Array(numel(shape));
  new SeededRandom(1).fillUniform(data, 0, 1);
  return Tensor.f32(shape, data);
}

function macsOf(build: (o: { batch?: number }) => Graph, batch: number): number {
  const g = build({ batch });
  const ops = defaultRegistry.bindAll(g);
  inferShapes(g, ops);
  return summarize(g, ops).totals.macs;
}

interface Row {
  model: string;
  threads: number;
  batch: number;
  level: number;
  p50: number;
  p99: number;
  perSecond: number;
  gflops: number;
  nonKernel: number;
  stats: FastEngineStats;
}

async function measure(name: string, threads: number, batch: number, level: OptLevel): Promise<Row> {
  const build = BUILDERS[name]!;
  const model = await loadModel(build({ batch }), { engine: 'fast', threads, optLevel: level });
  try {
    const x = input(batch);
    // Warm-up: V8 compiles wasm with Liftoff first and tiers up to TurboFan for later calls.
    for (let i = 0; i < 3; i++) await model.run(x);
    const times: number[] = [];
    const shares: number[] = [];
    const sub = model.metrics$.subscribe((m) => {
      const kernelMs = m.nodeMs.reduce((s, n) => s + n.ms, 0);
      shares.push(1 - kernelMs / (m.latencyMs * threads));
    });
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await model.run(x);
      times.push(performance.now() - t);
    }
    sub.unsubscribe();
    const p50 = percentile(times, 50);
    return {
      model: name, threads, batch, level, p50, p99: percentile(times, 99),
      perSecond: (1000 * batch) / p50,
      gflops: (2 * macsOf(build, batch)) / (p50 * 1e6),
      nonKernel: percentile(shares, 50),
      stats: model.engineStats as FastEngineStats,
    };
  } finally {
    await model.dispose();
  }
}

const f = (x: number, d = 1) => x.toFixed(d);
console.log(`# flowinfer bench/models — ${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'cpu'} (${cpus().length} cores), Node ${process.version}, median of ${RUNS} runs after 3 warm-up\n`);
console.log('| model | threads | batch | p50 ms | p99 ms | images/s | GFLOP/s | non-kernel share | SIMD | arena: slot planned / unplanned |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
for (const name of args.models!.split(',')) {
  for (const batch of [1, 8]) {
    for (const threads of [1, 2]) {
      const r = await measure(name, threads, batch, 3);
      console.log(`| ${name} | ${threads} | ${batch} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.perSecond)} | ${f(r.gflops)} | ${f(100 * r.nonKernel)} % | ${r.stats.simd} | ${f(r.stats.slotBytes / 2 ** 20)} / ${f(r.stats.unplannedBytes / 2 ** 20)} MiB |`);
    }
  }
}
if (args.levels) {
  console.log('\n| model | opt level | nodes after passes | p50 ms (2 threads, batch 1) |');
  console.log('|---|---:|---:|---:|');
  for (const name of args.models!.split(',')) {
    for (const [level, r] of (await measureLevels(name)).entries()) console.log(`| ${name} | ${level} | ${r.nodes} | ${f(r.p50)} |`);
  }
}

/**
 * Latency at each optimisation level, the four models loaded at once and run in alternation (a few runs
 * each per round), so that the machine's drift over a minute (20-30% on this VM) falls on every level alike.
 */
async function measureLevels(name: string): Promise<Array<{ nodes: number; p50: number }>> {
  const levels = [0, 1, 2, 3] as const;
  const models = [];
  for (const level of levels) models.push(await loadModel(BUILDERS[name]!({}), { engine: 'fast', threads: 2, optLevel: level }));
  try {
    const x = input(1);
    for (const m of models) for (let i = 0; i < 3; i++) await m.run(x);
    const times: number[][] = models.map(() => []);
    const perRound = 3;
    for (let round = 0; round < Math.ceil(RUNS / perRound); round++) {
      for (const [k, m] of models.entries()) {
        for (let i = 0; i < perRound; i++) {
          const t = performance.now();
          await m.run(x);
          times[k]!.push(performance.now() - t);
        }
      }
    }
    return models.map((m, k) => ({ nodes: m.graph.nodes.length, p50: percentile(times[k]!, 50) }));
  } finally {
    for (const m of models) await m.dispose();
  }
}
