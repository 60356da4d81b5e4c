// Small ONNX models built in tests with the exporter's own graph builder, and the check every import case
// makes: onnxruntime-node on the model against flowinfer's reference and fast engines on its import.

import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { OnnxGraphBuilder } from '../../src/format/onnx/builder.ts';
import { importOnnxModel, type OnnxImport } from '../../src/format/onnx/import/index.ts';
import { onnx } from '../../src/format/onnx/proto.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { ortSession, relativeDiff, runOrt } from './support.ts';

export const RELATIVE = 1e-4;

export interface ModelSpec {
  readonly opset: number;
  /** Real inputs; a string dim is a named dynamic dim. */
  readonly inputs: ReadonlyArray<{ readonly name: string; readonly dims: ReadonlyArray<number | string> }>;
  readonly outputs: readonly string[];
  /** Writes the nodes; `weight(shape)` makes a seeded float initializer. */
  readonly build: (b: OnnxGraphBuilder, weight: (shape: Shape, lo?: number, hi?: number) => string) => void;
}

export function onnxModel(spec: ModelSpec): Uint8Array {
  const b = new OnnxGraphBuilder();
  for (const i of spec.inputs) b.reserve(i.name);
  for (const o of spec.outputs) b.reserve(o);
  let seed = 100;
  const weight = (shape: Shape, lo = -1, hi = 1) => b.f32('w', shape, new SeededRandom(seed++).fillUniform(new Float32Array(numel(shape)), lo, hi));
  spec.build(b, weight);
  const info = (name: string, dims?: ReadonlyArray<number | string>) => ({
    name, type: { tensorType: { elemType: 1, ...(dims ? { shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } : {}) } },
  });
  return onnx.ModelProto.encode(onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: spec.opset }],
    producerName: 'flowinfer-test',
    graph: { name: 'test', node: b.nodes, initializer: b.initializers, input: spec.inputs.map((i) => info(i.name, i.dims)), output: spec.outputs.map((o) => info(o)) },
  })).finish();
}

export function randomInput(shape: Shape, seed: number, lo = -1, hi = 1): Tensor {
  return Tensor.f32(shape, new SeededRandom(seed).fillUniform(new Float32Array(numel(shape)), lo, hi));
}

export interface CheckOptions {
  /** Input shapes to run at, each a list of tensors by input order (default: one run at the declared shapes). */
  readonly runs: ReadonlyArray<readonly Tensor[]>;
  readonly engines?: ReadonlyArray<'reference' | 'fast'>;
  /** PNNX types the import must contain. */
  readonly expect?: readonly string[];
}

/**
 * Imports the model (dynamic dims bound to the first run's shapes), then for each run compares onnxruntime
 * with both engines; the later runs re-infer the same model's shapes. Returns the import for more checks.
 */
export async function checkModel(t: TestContext, bytes: Uint8Array, o: CheckOptions): Promise<OnnxImport> {
  const session = await ortSession(bytes);
  const names = session.inputNames;
  const wants = [];
  for (const run of o.runs) wants.push(await runOrt(session, Object.fromEntries(run.map((x, i) => [names[i]!, x]))));
  await session.release();
  let imported: OnnxImport | undefined;
  for (const engine of o.engines ?? ['reference', 'fast']) {
    imported = importOnnxModel(bytes, { file: 'case.onnx', inputShape: o.runs[0]!.map((x) => x.shape) });
    const types = new Set(imported.graph.nodes.map((n) => n.type));
    for (const type of o.expect ?? []) assert.ok(types.has(type), `the import has no ${type} node: ${[...types].join(', ')}`);
    const model = await loadModel(imported.graph, { engine, threads: 2 });
    try {
      for (const [k, run] of o.runs.entries()) {
        const got = await model.run(run);
        for (const [name, want] of Object.entries(wants[k]!)) {
          const d = relativeDiff(got[name]!, want);
          assert.ok(d <= RELATIVE, `${engine} engine, run ${k} (${run.map((x) => x.shape.join('x')).join(', ')}), output ${name}: relative difference ${d.toExponential(2)} > ${RELATIVE}`);
          t.diagnostic(`${engine}, ${run.map((x) => x.shape.join('x')).join(', ')}: ${name} within ${d.toExponential(2)}`);
        }
      }
    } finally {
      await model.dispose();
    }
  }
  return imported!;
}
