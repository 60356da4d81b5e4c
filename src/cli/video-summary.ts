// The block `flowinfer video` ends with: what went in, what ran it, how fast, where the results went,
// and why it stopped early if it did; `--profile` adds the per-node table.

import type { VideoInfo } from '../media/ffmpeg.ts';
import type { VideoSource } from '../media/video-source.ts';
import type { FastEngineStats } from '../runtime/fast/engine.ts';
import type { PixelModel } from './image-model.ts';
import { keyValues } from './format.ts';
import type { FrameOutput } from './video-output.ts';
import type { VideoProgress } from './video-progress.ts';

export interface VideoRun {
  readonly input: string;
  readonly info: VideoInfo;
  readonly spec: string;
  readonly pm: PixelModel;
  readonly fps: number | undefined;
  readonly policy: string;
  readonly inFlight: number;
  readonly progress: VideoProgress;
  readonly dropped: number;
  readonly source: VideoSource;
  readonly output: FrameOutput;
  readonly stopped: 'ctrl-c' | 'stdout closed' | undefined;
  /** Milliseconds: load (probe, build, optimise), warm-up run, frames. */
  readonly loadMs: number;
  readonly warmMs: number;
  readonly framesMs: number;
  readonly profile: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function videoSummary(r: VideoRun): string {
  const { info, pm, progress: bar } = r;
  const stats = pm.model.engineStats as FastEngineStats | undefined;
  const kind = { detect: 'detector', classify: 'classifier', text: 'text detector', raw: 'raw outputs' }[pm.post.kind.kind];
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const rows: Array<[string, string]> = [
    ['input', [
      `${r.input}: ${info.codec} ${info.width}x${info.height}`,
      ...(info.fps ? [`${info.fps} frames/s`] : []),
      ...(info.durationS !== undefined ? [`${info.durationS.toFixed(2)} s`] : []),
      ...(r.fps ? [`resampled to ${r.fps} frames/s`] : []),
    ].join(', ')],
    ['model', `${r.spec} at ${pm.width}x${pm.height}${pm.batch > 1 ? `, batch ${pm.batch}` : ''}, ${kind}, ${pm.model.graph.nodes.length} nodes`],
    ['engine', stats ? `fast: ${plural(stats.threads, 'worker thread')}, ${stats.simd} SIMD, ${plural(stats.slots, 'slot')}` : pm.model.engineName],
    ['frames', `${bar.done} done, ${r.dropped} dropped (policy ${r.policy}), ${r.inFlight} in flight at most`],
    ['throughput', `${(bar.done / (r.framesMs / 1000)).toFixed(1)} frames/s overall, ${bar.steadyFramesPerSecond().toFixed(1)} after the first frame`],
    ['latency', `p50 ${bar.latency(50).toFixed(1)} ms, p99 ${bar.latency(99).toFixed(1)} ms`],
    ['output', r.output.describe()],
    ['time', `${seconds(r.loadMs + r.warmMs + r.framesMs)} s (load ${seconds(r.loadMs)} s, warm-up ${seconds(r.warmMs)} s, frames ${seconds(r.framesMs)} s)`],
  ];
  if (r.stopped === 'ctrl-c') rows.push(['stopped', 'interrupted (Ctrl-C): ffmpeg stopped, results so far kept']);
  if (r.stopped === 'stdout closed') rows.push(['stopped', 'the reader of stdout went away: ffmpeg stopped']);
  const warnings = r.source.warnings;
  if (warnings.count) rows.push(['decoder', `ffmpeg logged ${plural(warnings.count, 'error line')} and went on; the last: ${warnings.last}`]);
  if (r.source.trailingBytes) rows.push(['warning', `the decoder's output ended with ${r.source.trailingBytes} bytes, less than a frame`]);
  return [`\n${keyValues(rows)}`, ...(r.profile ? [`\n${bar.profile.table()}`] : [])].join('\n');
}
