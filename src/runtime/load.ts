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

export interface LoadOptions {
  /** The .pnnx.bin; default: beside the .param. */
  readonly bin?: string;
  /** `reference`: the plain-TypeScript ops (slow, the oracle). */
  readonly engine?: 'reference';
  /** Input shapes to plan for (default: the file's annotations). */
  readonly inputShape?: InputShapes;
}

export async function loadModel(source: string | Graph, options: LoadOptions = {}): Promise<Model> {
  const engine = options.engine ?? 'reference';
  if (engine !== 'reference') throw new UsageError(`unknown engine "${String(engine)}" (engines: reference)`);
  const graph = typeof source === 'string' ? loadPnnxFiles(source, { bin: options.bin }) : source;
  validateGraph(graph);
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, options.inputShape);
  const debug = debugFromEnv();
  const makeEngine: EngineFactory = async (g, o) => {
    const reference = new ReferenceEngine(g, o, debug);
    return { run: async (inputs) => reference.run(inputs), dispose: async () => {} };
  };
  return new Model(graph, ops, engine, makeEngine, debug);
}
