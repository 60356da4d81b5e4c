// `npm start` / `flowinfer demo`: a few hundred generated frames (a moving test pattern) streamed through
// an embedded model with a live progress line, then a summary. Runs on a fresh clone: the model is built
// in code with seeded weights.

import { SingleBar } from 'cli-progress';
import { lastValueFrom, tap } from 'rxjs';
import { Window, percentile } from '../stream/stats.ts';
import type { FastEngineStats } from '../runtime/fast/engine.ts';
import { humanCount, keyValues } from './format.ts';
import { openModel } from './model-source.ts';
import { testPatternFrame } from './test-pattern.ts';

export interface DemoOptions {
  readonly model: string;
  readonly frames: number;
  readonly size: number;
  readonly inFlight: number;
  readonly threads?: number;
}

export async function demoCommand(options: DemoOptions): Promise<string> {
  const started = performance.now();
  const model = await openModel(options.model, { size: options.size, inputShape: [[1, 3, options.size, options.size]], threads: options.threads, slots: options.inFlight });
  const loadMs = performance.now() - started;
  try {
    const live = new Window(100);
    const latencies: number[] = [];
    let inFlight = 0;
    let dropped = 0;
    let done = 0;
    let firstAt = 0;
    const bar = new SingleBar({
      format: ' {bar} {value}/{total} frames | {fps} frames/s | p50 {p50} ms | in flight {inflight}',
      hideCursor: true,
      barsize: 24,
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 1000,
    });
    bar.start(options.frames, 0, { fps: '-', p50: '-', inflight: 0 });
    async function* frames() {
      for (let i = 0; i < options.frames; i++) {
        inFlight++;
        yield { input: testPatternFrame(i, options.size), meta: i };
      }
    }
    const runStart = performance.now();
    await lastValueFrom(model.stream(frames(), { maxInFlight: options.inFlight }).pipe(tap((r) => {
      inFlight--;
      done++;
      dropped = r.dropped;
      if (done === 1) firstAt = performance.now();
      if (r.outputs) {
        latencies.push(r.latencyMs);
        live.push(r.latencyMs);
      }
      const seconds = (performance.now() - runStart) / 1000;
      bar.update(done, { fps: (done / seconds).toFixed(1), p50: live.percentile(50).toFixed(1), inflight: inFlight });
    })));
    bar.stop();
    const totalS = (performance.now() - runStart) / 1000;
    const steadyFps = done > 1 ? (done - 1) / ((performance.now() - firstAt) / 1000) : NaN;
    const stats = model.engineStats as FastEngineStats | undefined;
    const rows: Array<[string, string]> = [
      ['model', `${options.model} at ${options.size}x${options.size}, ${model.graph.nodes.length} nodes after optimisation`],
      ['engine', stats ? `fast: ${stats.threads} worker threads, ${stats.simd} SIMD, ${stats.slots} slots, ${stats.steps} steps` : model.engineName],
      ['fallback nodes', stats ? (stats.fallbackNodes.length ? `${stats.fallbackNodes.length}: ${stats.fallbackNodes.slice(0, 3).join(', ')}${stats.fallbackNodes.length > 3 ? ', ...' : ''}` : 'none') : '-'],
      ['arena', stats ? `${humanCount(stats.arenaBytes)}B (one slot ${humanCount(stats.slotBytes)}B planned, ${humanCount(stats.unplannedBytes)}B without reuse)` : '-'],
      ['frames', `${done} done, ${dropped} dropped, ${options.inFlight} in flight at most`],
      ['throughput', `${(done / totalS).toFixed(1)} frames/s overall, ${steadyFps.toFixed(1)} after the first frame`],
      ['latency', `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`],
      ['load', `${loadMs.toFixed(0)} ms (build, optimise, plan)`],
    ];
    return `\n${keyValues(rows)}`;
  } finally {
    await model.dispose();
  }
}
