// The three engines behind one interface: flowinfer's fast engine (Model.run, Model.stream), and
// onnxruntime's InferenceSession from onnxruntime-web (WebAssembly, SIMD) or onnxruntime-node (native CPU).

import { readFileSync } from 'node:fs';
import { lastValueFrom } from 'rxjs';
import { importOnnx } from '../../src/format/onnx/import/index.ts';
import { loadModel } from '../../src/runtime/load.ts';
import type { Model } from '../../src/runtime/model.ts';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { frameShape, type Setup } from './protocol.ts';

export interface PeerEngine {
  /** What runs, e.g. `fast engine, relaxed SIMD` or `wasm EP, 2 threads`. */
  readonly description: string;
  runOne(): Promise<Float32Array>;
  runBatch(): Promise<void>;
  /** `frames` single frames with `inFlight` of them running at once. */
  stream(frames: number, inFlight: number): Promise<void>;
  dispose(): Promise<void>;
}

/** The same values for every engine: the setup's frame repeated, else seeded uniform [0, 1). */
export function makeInput(batch: number, s: Setup): Float32Array {
  const out = new Float32Array(numel(frameShape(batch, s.size)));
  if (!s.frame) return new SeededRandom(s.seed).fillUniform(out, 0, 1);
  for (let b = 0; b < batch; b++) out.set(s.frame, b * s.frame.length);
  return out;
}

const ZOO = { resnet18, mobilenet_v2: mobilenetV2, yolov5s } as const;

export async function flowinferEngine(s: Setup): Promise<PeerEngine> {
  const build = s.imported ? undefined : ZOO[s.model as keyof typeof ZOO];
  if (!build && !s.imported) throw new Error(`unknown zoo model ${s.model}`);
  const [b1, bn] = s.batches;
  // An imported ONNX model with dynamic dims is read for each batch size.
  const graph = (batch: number) => build ? build({ size: s.size, batch, seed: s.seed }) : importOnnx(readFileSync(s.onnx[0]), { inputShape: [frameShape(batch, s.size)] });
  // One model per batch size: a Model rebuilds its engine when the input shape changes.
  const one: Model = await loadModel(graph(b1), { engine: 'fast', threads: s.threads, slots: s.inFlight });
  const many: Model = await loadModel(graph(bn), { engine: 'fast', threads: s.threads });
  const x1 = Tensor.f32(frameShape(b1, s.size), makeInput(b1, s));
  const xn = Tensor.f32(frameShape(bn, s.size), makeInput(bn, s));
  // Warm-up: starts the workers, packs the weights, compiles the kernels.
  await one.run(x1);
  await many.run(xn);
  const stats = one.engineStats as FastEngineStats;
  return {
    description: `fast engine, ${stats.simd} SIMD`,
    runOne: async () => Object.values(await one.run(x1))[0]!.f32,
    runBatch: async () => void (await many.run(xn)),
    async stream(frames) {
      async function* source() {
        for (let i = 0; i < frames; i++) yield x1;
      }
      await lastValueFrom(one.stream(source(), { maxInFlight: s.inFlight }));
    },
    async dispose() {
      await one.dispose();
      await many.dispose();
    },
  };
}

/** What onnxruntime-web and onnxruntime-node share of their API. */
interface OrtModule {
  InferenceSession: { create(model: Uint8Array, options?: object): Promise<OrtSession> };
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => unknown;
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: unknown }>>;
  release(): Promise<void>;
}

async function ortEngine(ort: OrtModule, s: Setup, options: object, description: string): Promise<PeerEngine> {
  const [b1, bn] = s.batches;
  const one = await ort.InferenceSession.create(new Uint8Array(readFileSync(s.onnx[0])), options);
  const many = await ort.InferenceSession.create(new Uint8Array(readFileSync(s.onnx[1])), options);
  const [input, output] = [one.inputNames[0]!, one.outputNames[0]!];
  const f1 = { [input]: new ort.Tensor('float32', makeInput(b1, s), frameShape(b1, s.size)) };
  const fn = { [input]: new ort.Tensor('float32', makeInput(bn, s), frameShape(bn, s.size)) };
  const runOne = async () => (await one.run(f1))[output]!.data as Float32Array;
  await runOne();
  await many.run(fn);
  return {
    description,
    runOne,
    runBatch: async () => void (await many.run(fn)),
    async stream(frames, inFlight) {
      // `inFlight` runs in progress at any time (onnxruntime-node runs them on its own threads;
      // onnxruntime-web queues them on its one WebAssembly instance).
      let started = 0;
      const lane = async () => {
        while (started < frames) {
          started++;
          await one.run(f1);
        }
      };
      await Promise.all(Array.from({ length: inFlight }, lane));
    },
    async dispose() {
      await one.release();
      await many.release();
    },
  };
}

export async function ortNodeEngine(s: Setup): Promise<PeerEngine> {
  const ort = (await import('onnxruntime-node')) as unknown as OrtModule;
  const options = { intraOpNumThreads: s.threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
  return ortEngine(ort, s, options, `CPU EP, intraOpNumThreads ${s.threads}`);
}

export async function ortWebEngine(s: Setup): Promise<PeerEngine> {
  const ort = await import('onnxruntime-web');
  // The thread count is the WebAssembly module's, fixed when it starts: hence one process per count.
  ort.env.wasm.numThreads = s.threads;
  ort.env.wasm.wasmPaths = new URL('../../node_modules/onnxruntime-web/dist/', import.meta.url).href;
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  return ortEngine(ort as unknown as OrtModule, s, options, `wasm EP (SIMD), numThreads ${s.threads}`);
}
