// loadModel: from a .pnnx.param path (weights from the .pnnx.bin beside it), an .onnx path, or an in-memory graph
// (src/zoo) to a runnable Model.

import { loadPnnxFiles } from '../format/pnnx/load.ts';
import { isOnnxPath, loadOnnxFile } from '../format/onnx/import/index.ts';
import type { Graph } from '../graph/graph.ts';
import { inferShapes, type InputShapes } from '../graph/shapes.ts';
import { validateGraph } from '../graph/validate.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { UsageError } from '../errors.ts';
import { debugFromEnv } from './debug.ts';
import { Model, type EngineFactory } from './model.ts';
import { ReferenceEngine } from './reference-engine.ts';
import { FastEngine } from './fast/engine.ts';
import { SlotPool } from '../tensor/arena.ts';
import type { SimdRequest } from '../kernels/module.ts';
import { DEFAULT_OPT_LEVEL, optimizeGraph, type OptLevel, type PassReport } from '../graph/passes/index.ts';

export interface LoadOptions {
  /** The .pnnx.bin; default: beside the .param. */
  readonly bin?: string;
  /** `fast` (default): SIMD kernels on a worker pool; `reference`: the plain-TypeScript ops (the oracle). */
  readonly engine?: 'fast' | 'reference';
  /** Fast engine: worker threads (default: the machine's cores). */
  readonly threads?: number;
  /** Fast engine: frames in flight, each with its own arena slot (default 1). */
  readonly slots?: number;
  /** Fast engine: SIMD build, 'auto' (default), 'relaxed' or 'plain'. */
  readonly simd?: SimdRequest;
  /** Fast engine: `workers` (default) chain a frame's steps themselves; `rxjs`: every step fires as an RxJS node. */
  readonly dispatch?: 'workers' | 'rxjs';
  /** Input shapes to plan for (default: the file's annotations). */
  readonly inputShape?: InputShapes;
  /** Graph optimisation: 0 none, 1 clean-ups and batch-norm folding, 2 + fusion and folding, 3 + residual fusion (default). */
  readonly optLevel?: OptLevel;
  /** Passes not to run, by name (see `flowinfer inspect --passes`). */
  readonly disablePasses?: readonly string[];
}

export async function loadModel(source: string | Graph, options: LoadOptions = {}): Promise<Model> {
  const engine = options.engine ?? 'fast';
  if (engine !== 'reference' && engine !== 'fast') throw new UsageError(`unknown engine "${String(engine)}" (engines: fast, reference)`);
  const graph = typeof source === 'string'
    ? isOnnxPath(source) ? loadOnnxFile(source, { inputShape: options.inputShape }) : loadPnnxFiles(source, { bin: options.bin })
    : source;
  validateGraph(graph);
  inferShapes(graph, defaultRegistry.bindAll(graph), options.inputShape);
  const level = options.optLevel ?? DEFAULT_OPT_LEVEL;
  if (![0, 1, 2, 3].includes(level)) throw new UsageError(`optLevel ${String(level)}: expected 0, 1, 2 or 3`);
  const debug = debugFromEnv();
  const passes: PassReport[] = level > 0
    ? optimizeGraph(graph, defaultRegistry, { level, disabled: options.disablePasses, inputShapes: options.inputShape, trace: debug.level >= 1 })
    : [];
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, options.inputShape);
  const makeEngine: EngineFactory = async (g, o, slots) => {
    if (engine === 'fast') return FastEngine.create(g, o, { threads: options.threads, slots, simd: options.simd, dispatch: options.dispatch });
    const reference = new ReferenceEngine(g, o, debug);
    // The reference runs on the main thread: one frame at a time.
    return { slots: new SlotPool(1), runInSlot: async (_slot, inputs) => reference.run(inputs), cancel: () => undefined, dispose: async () => {} };
  };
  return new Model(graph, ops, engine, makeEngine, debug, passes, options.slots ?? 1);
}
