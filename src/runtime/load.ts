// loadModel: from a .pnnx.param path (weights from the .pnnx.bin beside it) or an in-memory graph
// (src/zoo) to a runnable Model.

import { loadPnnxFiles } from '../format/pnnx/load.ts';
import type { Graph } from '../graph/graph.ts';
import { inferShapes, type InputShapes } from '../graph/shapes.ts';
import { validateGraph } from '../graph/validate.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { UsageError } from '../errors.ts';
import { debugFromEnv } from './debug.ts';
import { Model, type EngineFactory } from './model.ts';
import { ReferenceEngine } from './reference-engine.ts';
import { FastEngine } from './fast/engine.ts';
import type { SimdRequest } from '../kernels/module.ts';


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
  /** Input shapes to plan for (default: the file's annotations). */
  readonly inputShape?: InputShapes;
}

export async function loadModel(source: string | Graph, options: LoadOptions = {}): Promise<Model> {
  const engine = options.engine ?? 'fast';
  if (engine !== 'reference' && engine !== 'fast') throw new UsageError(`unknown engine "${String(engine)}" (engines: fast, reference)`);
  const graph = typeof source === 'string' ? loadPnnxFiles(source, { bin: options.bin }) : source;
  validateGraph(graph);
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, options.inputShape);
  const debug = debugFromEnv();
  const makeEngine: EngineFactory = async (g, o) => {
    if (engine === 'fast') return FastEngine.create(g, o, { threads: options.threads, slots: options.slots, simd: options.simd });
    const reference = new ReferenceEngine(g, o, debug);
    return { run: async (inputs) => reference.run(inputs), dispose: async () => {} };
  };
  return new Model(graph, ops, engine, makeEngine, debug);
}
