// Streaming benchmark: frames/s and latency p50/p99 of model.stream for ResNet-18 and MobileNetV2 at 224
// (seeded weights), with 1, 2 and 4 frames in flight and batches of 1, 4 and 8, next to sequential
// model.run on 1 and on 2 worker threads, in the same run.
//
//   npm run bench:stream [-- --frames 48 --models resnet18,mobilenet_v2]

import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { lastValueFrom, toArray } from 'rxjs';
import { loadModel } from '../src/runtime/load.ts';
import type { Graph } from '../src/graph/graph.ts';
import { mobilenetV2, resnet18 } from '../src/zoo/index.ts';
import { SeededRandom } from '../src/tensor/random.ts';
import { Tensor } from '../src/tensor/tensor.ts';
import { percentile } from '../src/stream/stats.ts';

const { values: args } = parseArgs({
  options: {
    frames: { type: 'string', default: '48' },
    models: { type: 'string', default: 'resnet18,mobilenet_v2' },
    size: { type: 'string', default: '224' },
  },
});
const FRAMES = Number(args.frames);
const SIZE = Number(args.size);
const BUILDERS: Record<string, () => Graph> = { resnet18: () => resnet18({ size: SIZE }), mobilenet_v2: () => mobilenetV2({ size: SIZE }) };

const frames = Array.from({ length: 8 }, (_, i) => {
  const data = new Float32Array(3 * SIZE * SIZE);
  new SeededRandom(i).fillUniform(data, 0, 1);
  return Tensor.f32([1, 3, SIZE, SIZE], data);
});

interface Figures {
  fps: number;
  p50: number;
  p99: number;
}

async function sequential(build: () => Graph, threads: number): Promise<Figures> {
  const model = await loadModel(build(), { engine: 'fast', threads });
  try {
    for (let i = 0; i < 3; i++) await model.run(frames[i % frames.length]!);
    const times: number[] = [];
    const start = performance.now();
    for (let i = 0; i < FRAMES; i++) {
      const t = performance.now();
      await model.run(frames[i % frames.length]!);
      times.push(performance.now() - t);
    }
    return { fps: (1000 * FRAMES) / (performance.now() - start), p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await model.dispose();
  }
}

async function streamed(build: () => Graph, inFlight: number, batch: number): Promise<Figures> {
  const model = await loadModel(build(), { engine: 'fast', threads: 2 });
  try {
    async function* source(n: number) {
      for (let i = 0; i < n; i++) yield frames[i % frames.length]!;
    }
    // Warm-up at the same batch and slots (builds the engine, tiers the kernels up).
    await lastValueFrom(model.stream(source(batch * inFlight * 2), { maxInFlight: inFlight, batch }).pipe(toArray()));
    const start = performance.now();
    const results = await lastValueFrom(model.stream(source(FRAMES), { maxInFlight: inFlight, batch, maxWaitMs: 1000 }).pipe(toArray()));
    const fps = (1000 * results.length) / (performance.now() - start);
    const latencies = results.map((r) => (r.error ? NaN : r.latencyMs));
    return { fps, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await model.dispose();
  }
}

const f = (x: number) => x.toFixed(1);
console.log(`# flowinfer bench/stream — ${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'cpu'} (${cpus().length} cores), Node ${process.version}, ${FRAMES} frames per row at ${SIZE}x${SIZE}\n`);
console.log('| model | mode | threads | in flight | batch | frames/s | x sequential 1 thread | latency p50 ms | p99 ms |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const name of args.models!.split(',')) {
  const build = BUILDERS[name]!;
  const base = await sequential(build, 1);
  const row = (mode: string, threads: number, inFlight: string, batch: number, r: Figures) =>
    console.log(`| ${name} | ${mode} | ${threads} | ${inFlight} | ${batch} | ${f(r.fps)} | ${(r.fps / base.fps).toFixed(2)} | ${f(r.p50)} | ${f(r.p99)} |`);
  row('run (sequential)', 1, '-', 1, base);
  row('run (sequential)', 2, '-', 1, await sequential(build, 2));
  for (const batch of [1, 4, 8]) {
    for (const inFlight of [1, 2, 4]) row('stream', 2, String(inFlight), batch, await streamed(build, inFlight, batch));
  }
}
