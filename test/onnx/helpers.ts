// Helpers for the ONNX export tests: onnxruntime-node as the oracle, graphs from .pnnx.param lines, graph
// copies (the optimiser rewrites a loaded graph in place), and the worst relative difference of a comparison.

import assert from 'node:assert/strict';
import * as ort from 'onnxruntime-node';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { Graph, type Weight } from '../../src/graph/graph.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { assertClose } from '../helpers/compare.ts';

/** The agreement every comparison needs: |diff| <= 1e-4 x the largest magnitude of the expected tensor. */
export const RELATIVE = 1e-4;

/** Runs an exported model on onnxruntime-node (one intra-op thread: other suites share the 2 cores). */
export async function runOrt(model: Uint8Array, inputs: Readonly<Record<string, Tensor>>): Promise<Record<string, Tensor>> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  try {
    const feeds = Object.fromEntries(Object.entries(inputs).map(([k, t]) => [k, new ort.Tensor('float32', t.f32, [...t.shape])]));
    const results = await session.run(feeds);
    return Object.fromEntries(Object.entries(results).map(([k, t]) => [k, Tensor.f32(t.dims, t.data as Float32Array)]));
  } finally {
    await session.release();
  }
}

/**
 * max |got - want| / max |want|: the figure the tolerance bounds (or / floor when max |want| is smaller: a
 * map of probabilities near 0).
 */
export function relativeDiff(got: Tensor, want: Tensor, floor = 0): number {
  assert.deepEqual([...got.shape], [...want.shape], `shape ${got.shape.join('x')}, expected ${want.shape.join('x')}`);
  let scale = 0;
  let worst = 0;
  const g = got.f32;
  const w = want.f32;
  for (let i = 0; i < w.length; i++) {
    scale = Math.max(scale, Math.abs(w[i]!));
    worst = Math.max(worst, Math.abs(g[i]! - w[i]!));
  }
  scale = Math.max(scale, floor);
  return scale === 0 ? worst : worst / scale;
}

/** assertClose at RELATIVE; returns the relative difference for the report. */
export function agree(got: Tensor, want: Tensor, what: string): number {
  assertClose(got, want, RELATIVE, what);
  return relativeDiff(got, want);
}

/** Seeded uniform values in [lo, hi). */
export function randomTensor(shape: Shape, seed: number, lo = -1, hi = 1): Tensor {
  return Tensor.f32(shape, new SeededRandom(seed).fillUniform(new Float32Array(numel(shape)), lo, hi));
}

/**
 * A graph from .pnnx.param operator lines (the two header lines are counted here), with seeded weights:
 *   pnnx.Input in 0 1 x #x=(1,4,8,8)f32
 */
export function pnnxGraph(lines: readonly string[], seed = 1): Graph {
  const operands = new Set<string>();
  for (const line of lines) {
    const [, , nIn, nOut, ...rest] = line.trim().split(/\s+/);
    for (const name of rest.slice(0, Number(nIn) + Number(nOut))) operands.add(name);
  }
  const graph = parsePnnxParam(new TextEncoder().encode(['7767517', `${lines.length} ${operands.size}`, ...lines].join('\n')), 'test.pnnx.param');
  initWeights(graph, defaultRegistry, seed);
  return graph;
}

/** A copy of the graph's nodes, params and annotations; weight data is shared (passes replace, not mutate, it). */
export function cloneGraph(g: Graph): Graph {
  const copy = new Graph(g.file);
  for (const n of g.nodes) {
    copy.addNode({
      type: n.type,
      name: n.name,
      inputs: n.inputs.map((v) => copy.value(v.name)),
      outputs: n.outputs.map((v) => copy.value(v.name)),
      params: n.params,
      weights: [...n.weights].map(([k, w]): [string, Weight] => [k, { ...w }]),
      inputKeys: n.inputKeys,
      source: n.source,
    });
  }
  for (const [name, v] of g.values) {
    const c = copy.values.get(name);
    if (c) c.annotation = v.annotation;
  }
  return copy;
}
