// Graphs with seeded weights run on the reference and on the fast engine, for tests that hold the two equal.
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { loadModel, type LoadOptions } from '../../src/runtime/load.ts';
import type { Model } from '../../src/runtime/model.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';

/** A `.pnnx.param` text parsed, with seeded weights. */
export function seededGraph(text: string, file: string, seed: number): Graph {
  const g = parsePnnxParam(text, file);
  initWeights(g, defaultRegistry, seed);
  return g;
}

/** Uniform [lo, hi) values of a seed. */
export function randomTensor(shape: readonly number[], seed: number, lo = -1, hi = 1): Tensor {
  const d = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(d, lo, hi);
  return Tensor.f32([...shape], d);
}

/** Loads `make()` twice, on the reference engine (unoptimised) and on the fast engine, runs `body`, disposes both. */
export async function withBothEngines(make: () => Graph, fastOptions: LoadOptions, body: (reference: Model, fast: Model) => Promise<void>): Promise<void> {
  const reference = await loadModel(make(), { engine: 'reference', optLevel: 0 });
  try {
    const fast = await loadModel(make(), { engine: 'fast', ...fastOptions });
    try {
      await body(reference, fast);
    } finally {
      await fast.dispose();
    }
  } finally {
    await reference.dispose();
  }
}
