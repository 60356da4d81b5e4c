// `flowinfer bench <model> [--batch n] [--frames N] [--in-flight k] [--threads t] [--size px] [--json]`:
// generated frames (the demo's moving test pattern) streamed through the model after one warm-up run,
// then latency p50/p99, frames per second, CPU use and the dispatch share.
//
// - A "frame" is one picture: with --batch n each run takes n of them, as one (n, 3, H, W) tensor made
//   before the clock starts, so that the figures are the engine's and not the frame maker's. Latency is
//   per run (a batch), from admission into an arena slot to outputs copied out.
// - CPU use is process.cpuUsage() (user + system of every thread: main and workers) over the wall time
//   of the timed part, in cores.
// - Dispatch share: the part of the workers' time that is not spent in kernels,
//       1 - sum over runs of sum(nodeMs) / (wall time x threads)
//   nodeMs is each node's tile time summed over worker threads (model.metrics$), so the sum is the time
//   the threads spent inside kernels; what is left of threads x wall went to dispatch (task ring, RxJS
//   nodes, completions) or to waiting. Over the whole run rather than per frame: with k frames in flight a
//   frame's latency also holds the other frames' kernels. The reference engine counts as 1 thread.

import { lastValueFrom, tap } from 'rxjs';
import { UsageError } from '../errors.ts';
import type { FastEngineStats } from '../runtime/fast/engine.ts';
import { percentile } from '../stream/stats.ts';
import type { FrameMetrics } from '../stream/types.ts';
import { Tensor } from '../tensor/tensor.ts';
import { keyValues } from './format.ts';
import { openPixelModel, type PixelModelOptions } from './image-model.ts';
import { NodeProfile } from './profile.ts';
import { testPatternFrame } from './test-pattern.ts';

export interface BenchOptions extends PixelModelOptions {
  readonly frames?: number;
  readonly inFlight?: number;
  readonly json?: boolean;
  readonly profile?: boolean;
}

export interface BenchReport {
  readonly model: string;
  readonly batch: number;
  readonly threads: number;
  readonly inFlight: number;
  readonly frames: number;
  readonly framesPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuCores: number;
  readonly dispatchShare: number;
  readonly width: number;
  readonly height: number;
  readonly engine: string;
  readonly wallMs: number;
}

/** A few distinct batches to cycle through (the pattern moves from one to the next). */
function makeBatches(count: number, batch: number, width: number, height: number): Tensor[] {
  const size = Math.max(width, height);
  return Array.from({ length: count }, (_, k) => {
    const data = new Float32Array(batch * 3 * height * width);
    for (let b = 0; b < batch; b++) {
      const frame = testPatternFrame(k * batch + b, size).f32;
      // The pattern is square; a non-square input takes its top-left corner, plane by plane.
      for (let c = 0; c < 3; c++) {
        for (let y = 0; y < height; y++) {
          const from = (c * size + y) * size;
          data.set(frame.subarray(from, from + width), ((b * 3 + c) * height + y) * width);
        }
      }
    }
    return Tensor.f32([batch, 3, height, width], data);
  });
}

export async function runBench(spec: string, options: BenchOptions): Promise<BenchReport> {
  const frames = options.frames ?? 64;
  // The reference engine has one slot (frames one at a time on the main thread): more would only queue.
  const inFlight = options.engine === 'reference' ? 1 : options.inFlight ?? 2;
  const batch = options.batch ?? 1;
  if (!Number.isInteger(frames) || frames < 1) throw new UsageError(`--frames ${String(options.frames)}: expected a positive integer`);
  if (!Number.isInteger(inFlight) || inFlight < 1) throw new UsageError(`--in-flight ${String(options.inFlight)}: expected a positive integer`);
  const { model, width, height } = await openPixelModel(spec, { ...options, batch, slots: inFlight });
  try {
    const runs = Math.ceil(frames / batch);
    const batches = makeBatches(Math.min(runs, 4), batch, width, height);
    // Warm-up: builds the engine, starts the workers, compiles the kernels.
    await model.run(batches[0]!);
    const metrics: FrameMetrics[] = [];
    const sub = model.metrics$.subscribe((m) => {
      if (m.source === 'stream') metrics.push(m);
    });
    async function* source() {
      for (let i = 0; i < runs; i++) yield batches[i % batches.length]!;
    }
    const latencies: number[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await lastValueFrom(model.stream(source(), { maxInFlight: inFlight }).pipe(tap((r) => {
      if (r.outputs) latencies.push(r.latencyMs);
    })));
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    sub.unsubscribe();
    const stats = model.engineStats as FastEngineStats | undefined;
    const threads = stats?.threads ?? 1;
    const kernelMs = metrics.reduce((s, m) => s + m.nodeMs.reduce((t, n) => t + n.ms, 0), 0);
    if (options.profile) {
      const profile = new NodeProfile();
      for (const m of metrics) profile.add(m.nodeMs);
      process.stderr.write(`${profile.table()}\n`);
    }
    return {
      model: spec, batch, threads, inFlight, frames: runs * batch,
      framesPerSec: (runs * batch) / (wallMs / 1000),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      cpuCores: (cpu.user + cpu.system) / 1000 / wallMs,
      dispatchShare: Math.max(0, 1 - kernelMs / (wallMs * threads)),
      width, height,
      engine: stats ? `fast (${stats.simd} SIMD)` : model.engineName,
      wallMs,
    };
  } finally {
    await model.dispose();
  }
}

export async function benchCommand(spec: string, options: BenchOptions): Promise<string> {
  const r = await runBench(spec, options);
  if (options.json) {
    const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
    return JSON.stringify({
      model: r.model, batch: r.batch, threads: r.threads, inFlight: r.inFlight, frames: r.frames,
      framesPerSec: round(r.framesPerSec, 2), p50Ms: round(r.p50Ms), p99Ms: round(r.p99Ms),
      cpuCores: round(r.cpuCores, 2), dispatchShare: round(r.dispatchShare, 4),
      width: r.width, height: r.height, engine: r.engine, wallMs: round(r.wallMs, 1),
    });
  }
  return keyValues([
    ['model', `${r.model} at ${r.width}x${r.height}, batch ${r.batch}`],
    ['engine', `${r.engine}, ${r.threads} thread${r.threads === 1 ? '' : 's'}, ${r.inFlight} in flight`],
    ['frames', `${r.frames} in ${(r.wallMs / 1000).toFixed(2)} s (after one warm-up run)`],
    ['throughput', `${r.framesPerSec.toFixed(1)} frames/s`],
    ['latency', `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms (per run of ${r.batch} frame${r.batch === 1 ? '' : 's'})`],
    ['cpu', `${r.cpuCores.toFixed(2)} cores busy on average`],
    ['dispatch', `${(100 * r.dispatchShare).toFixed(1)} % of worker time outside kernels (dispatch and waiting)`],
  ]);
}
