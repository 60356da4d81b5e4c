// Shared by the ONNX import tests: the ONNX backend test data in ../shared/reference/onnx (MANIFEST.json,
// .pb tensors, the light models' input rule), onnx's own comparison (assert_allclose with NaNs equal), and
// onnxruntime-node as the oracle for whole models.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { tensorFromProto } from '../../src/format/onnx/import/index.ts';
import { onnx, type ModelProto } from '../../src/format/onnx/proto.ts';
import { formatShape, numel, stridesOf, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { SHARED } from '../helpers/shared.ts';

export const ONNX_DATA = join(SHARED, 'reference', 'onnx');
export const SKIP_ONNX_DATA = existsSync(join(ONNX_DATA, 'MANIFEST.json')) ? false : `the ONNX backend test data is absent (expected ${ONNX_DATA})`;

export interface ManifestPort {
  readonly name: string;
  readonly shape: number[];
  readonly file?: string;
  readonly rule?: { readonly kind: string };
}

export interface ManifestCase {
  readonly id: string;
  readonly family: string;
  readonly model: string;
  readonly inputs: ManifestPort[];
  readonly outputs: ManifestPort[];
  readonly opset: number;
  readonly ops: string[];
  readonly tolerance_hint: { readonly rtol: number; readonly atol: number };
}

export function readManifest(): ManifestCase[] {
  return SKIP_ONNX_DATA ? [] : (JSON.parse(readFileSync(join(ONNX_DATA, 'MANIFEST.json'), 'utf8')) as ManifestCase[]);
}

export function readPb(path: string): Tensor {
  return tensorFromProto(onnx.TensorProto.decode(readFileSync(path)), path);
}

/** The light models' input (README: onnx's generate_dummy_data): element i is float32(i / n). */
export function arangeOverN(shape: Shape): Tensor {
  const n = numel(shape);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = i / n;
  return Tensor.f32(shape, data);
}

export function caseInputs(c: ManifestCase): Tensor[] {
  return c.inputs.map((p) => {
    if (p.file) return readPb(join(ONNX_DATA, p.file));
    if (p.rule?.kind === 'arange_over_n') return arangeOverN(p.shape);
    throw new Error(`${c.id}: input ${p.name} has neither a file nor a known rule`);
  });
}

export interface Agreement {
  /** max |got - want| */
  readonly maxAbs: number;
  /** max |got - want| / (atol + rtol |want|): at most 1 to pass. */
  readonly worst: number;
}

/** numpy.testing.assert_allclose(got, want, rtol, atol) with NaNs equal; returns the figures. */
export function assertAllClose(got: Tensor, want: Tensor, rtol: number, atol: number, what: string): Agreement {
  assert.deepEqual([...got.shape], [...want.shape], `${what}: shape ${formatShape(got.shape)}, expected ${formatShape(want.shape)}`);
  const g = got.f32;
  const w = want.f32;
  let maxAbs = 0;
  let worst = 0;
  let at = -1;
  for (let i = 0; i < w.length; i++) {
    if (Number.isNaN(w[i]!) && Number.isNaN(g[i]!)) continue;
    const d = Math.abs(g[i]! - w[i]!);
    const ratio = d / (atol + rtol * Math.abs(w[i]!));
    if (!(ratio <= worst)) {
      worst = ratio;
      at = i;
    }
    if (d > maxAbs) maxAbs = d;
  }
  if (!(worst <= 1)) {
    const index = stridesOf(want.shape).map((s, k) => Math.floor(at / s) % want.shape[k]!);
    assert.fail(`${what}: at [${index.join(',')}] expected ${w[at]}, got ${g[at]} (|diff| ${Math.abs(g[at]! - w[at]!)} > ${atol} + ${rtol} x |expected|)`);
  }
  return { maxAbs, worst };
}

export { relativeDiff } from '../onnx/helpers.ts';

/** An onnxruntime-node session (one intra-op thread: other suites share the 2 cores). */
export async function ortSession(model: Uint8Array | string): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model as Uint8Array, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
}

export async function runOrt(session: ort.InferenceSession, inputs: Readonly<Record<string, Tensor>>): Promise<Record<string, Tensor>> {
  const feeds = Object.fromEntries(Object.entries(inputs).map(([k, t]) => [k, new ort.Tensor('float32', t.f32, [...t.shape])]));
  const results = await session.run(feeds);
  return Object.fromEntries(Object.entries(results).map(([k, t]) => [k, Tensor.f32(t.dims, t.data as Float32Array)]));
}

/** The model with the input of its last `opType` node as an extra graph output (a detector's logits). */
export function withInputOf(bytes: Uint8Array, opType: string): { bytes: Uint8Array; name: string } {
  const m: ModelProto = onnx.ModelProto.decode(bytes);
  const node = [...m.graph!.node!].reverse().find((n) => n.opType === opType);
  if (!node) throw new Error(`the model has no ${opType} node`);
  const name = node.input![0]!;
  m.graph!.output!.push(onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT } } }));
  return { bytes: onnx.ModelProto.encode(m).finish(), name };
}
