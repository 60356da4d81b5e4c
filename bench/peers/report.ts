// The peers table: one row per engine and thread count; speeds also as a ratio to onnxruntime-web at the
// same thread count (above 1: faster than onnxruntime-web).

import { percentile } from '../../src/stream/stats.ts';
import type { Machine } from './machine.ts';
import type { EngineKind } from './protocol.ts';

export interface Measured {
  readonly engine: EngineKind;
  readonly threads: number;
  readonly description: string;
  /** Batch-1 run times (ms). */
  readonly latency: number[];
  /** Throughput-batch run times (ms). */
  readonly batch: number[];
  /** Streaming chunks: elapsed and CPU time (ms). */
  readonly streams: Array<{ ms: number; cpuMs: number; frames: number }>;
  /** max |out - ref| / max |ref| against onnxruntime-node's batch-1 output. */
  readonly diff: number;
}

export interface ModelReport {
  readonly title: string;
  readonly batch: number;
  readonly inFlight: number;
  readonly rows: readonly Measured[];
}

const median = (xs: readonly number[]) => percentile(xs, 50);

interface Speeds {
  p50: number;
  p99: number;
  imagesPerSec: number;
  framesPerSec: number;
  cores: number;
}

function speeds(m: Measured, batch: number): Speeds {
  return {
    p50: median(m.latency),
    p99: percentile(m.latency, 99),
    imagesPerSec: (1000 * batch) / median(m.batch),
    framesPerSec: median(m.streams.map((s) => (1000 * s.frames) / s.ms)),
    cores: median(m.streams.map((s) => s.cpuMs / s.ms)),
  };
}

const NAMES: Readonly<Record<EngineKind, string>> = { flowinfer: 'flowinfer', 'ort-web': 'onnxruntime-web', 'ort-node': 'onnxruntime-node' };
const ratio = (x: number) => `${x.toFixed(2)}x`;

export function modelTable(r: ModelReport): string {
  const all = new Map(r.rows.map((m) => [m, speeds(m, r.batch)]));
  const web = (threads: number) => [...all].find(([m]) => m.engine === 'ort-web' && m.threads === threads)?.[1];
  const lines = [
    `### ${r.title}`,
    '',
    `| engine | threads | latency p50 (ms) | p99 (ms) | vs web | images/s, batch ${r.batch} | vs web | stream frames/s, ${r.inFlight} in flight | vs web | CPU cores (stream) | max rel. diff |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [m, s] of all) {
    const w = web(m.threads);
    lines.push(`| ${NAMES[m.engine]} | ${m.threads} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${w ? ratio(w.p50 / s.p50) : '-'} | ` +
      `${s.imagesPerSec.toFixed(1)} | ${w ? ratio(s.imagesPerSec / w.imagesPerSec) : '-'} | ${s.framesPerSec.toFixed(1)} | ` +
      `${w ? ratio(s.framesPerSec / w.framesPerSec) : '-'} | ${s.cores.toFixed(2)} | ${m.diff.toExponential(1)} |`);
  }
  return lines.join('\n');
}

export function machineLines(m: Machine): string[] {
  return [
    `- Date: ${m.date}`,
    `- Machine: ${m.cpu}, ${m.cores} cores (load average at start: ${m.load})`,
    `- Node ${m.node}, V8 ${m.v8}`,
    `- Packages: ${m.packages}`,
  ];
}

export function engineLines(rows: readonly Measured[]): string[] {
  const seen = new Map<string, string>();
  for (const m of rows) seen.set(`${NAMES[m.engine]} (${m.threads} thread${m.threads > 1 ? 's' : ''})`, m.description);
  return [...seen].map(([k, v]) => `- ${k}: ${v}`);
}
