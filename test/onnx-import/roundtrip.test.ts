// Imported, then exported again: the ONNX exporter writes an imported graph (as imported, and as the
// optimiser leaves it) that onnxruntime runs to the same outputs: conformance models against their
// expected outputs (their opset-6 originals have no onnxruntime kernels), the PP-OCR detector against
// onnxruntime on the original. And `flowinfer inspect` / `export-onnx` take .onnx files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportOnnxCommand } from '../../src/cli/export-onnx.ts';
import { inspectCommand } from '../../src/cli/inspect.ts';
import { exportOnnx } from '../../src/format/onnx/index.ts';
import { importOnnx } from '../../src/format/onnx/import/index.ts';
import { optimizeGraph } from '../../src/graph/passes/index.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import type { Tensor } from '../../src/tensor/tensor.ts';
import { DETECTOR, DET_NORM, planar, renderText, SKIP_OCR } from './ocr-support.ts';
import { assertAllClose, caseInputs, ONNX_DATA, ortSession, readManifest, readPb, relativeDiff, runOrt, SKIP_ONNX_DATA } from './support.ts';

const ROUND_TRIP = [
  'pytorch-converted/test_Conv2d_dilated', 'pytorch-converted/test_ConvTranspose2d', 'pytorch-converted/test_BatchNorm2d_eval',
  'pytorch-converted/test_PReLU_2d', 'pytorch-converted/test_Softmin', 'pytorch-converted/test_Linear', 'pytorch-converted/test_ReflectionPad2d',
  'pytorch-converted/test_PixelShuffle', 'pytorch-operator/test_operator_chunk', 'light/light_squeezenet', 'light/light_shufflenet',
];

/** Runs an ONNX model's bytes on onnxruntime with inputs in the model's input order. */
async function ort(bytes: Uint8Array, inputs: readonly Tensor[]): Promise<Record<string, Tensor>> {
  const session = await ortSession(bytes);
  try {
    return await runOrt(session, Object.fromEntries(inputs.map((x, i) => [session.inputNames[i]!, x])));
  } finally {
    await session.release();
  }
}

for (const c of readManifest().filter((m) => ROUND_TRIP.includes(m.id))) {
  test(`${c.id}: imported, exported (as imported and optimised), run on onnxruntime`, async (t) => {
    const inputs = caseInputs(c);
    for (const optimised of [false, true]) {
      const graph = importOnnx(readFileSync(join(ONNX_DATA, c.model)), { file: c.id });
      if (optimised) {
        inferShapes(graph, defaultRegistry.bindAll(graph));
        optimizeGraph(graph, defaultRegistry);
      }
      const outputs = await ort(exportOnnx(graph), inputs);
      c.outputs.forEach((port) => {
        const a = assertAllClose(outputs[port.name]!, readPb(join(ONNX_DATA, port.file!)), c.tolerance_hint.rtol, c.tolerance_hint.atol, `${c.id} ${optimised ? 'optimised' : 'as imported'}`);
        t.diagnostic(`${optimised ? 'optimised' : 'as imported'}: max |diff| ${a.maxAbs.toExponential(2)}`);
      });
    }
  });
}
if (SKIP_ONNX_DATA) test('conformance models round trip', { skip: SKIP_ONNX_DATA }, () => {});

test('PP-OCRv4 detector: `flowinfer export-onnx det.onnx` gives onnxruntime the original\'s outputs', { skip: SKIP_OCR }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-roundtrip-'));
  try {
    const file = join(dir, 'det.onnx');
    const said = exportOnnxCommand(DETECTOR, { output: file, inputShape: [[1, 3, 160, 320]] });
    assert.match(said, /^wrote .*det\.onnx: \d+ ONNX nodes, \d+ initializers, .*opset 17, opt level 3\ninput x \(1,3,160,320\)\noutput sigmoid_0\.tmp_0 \(1,1,160,320\)$/);
    const p = await renderText('flowinfer 2024', 320, 160, 40, 24, 96);
    const x = planar(p.rgb, 320, 160, DET_NORM);
    const want = (await ort(readFileSync(DETECTOR), [x]))['sigmoid_0.tmp_0']!;
    const got = Object.values(await ort(readFileSync(file), [x]))[0]!;
    const d = relativeDiff(got, want, 1);
    t.diagnostic(`exported detector within ${d.toExponential(2)} of the original on onnxruntime`);
    assert.ok(d <= 1e-4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('`flowinfer inspect det.onnx --input-shape 1,3,640,640` lists the imported graph', { skip: SKIP_OCR }, () => {
  const text = inspectCommand(DETECTOR, { inputShape: [[1, 3, 640, 640]] });
  assert.match(text, /^p2o\.Conv\.0 +nn\.Conv2d +\(1,16,320,320\) /m);
  assert.match(text, /^p2o\.Div\.0 +nn\.Hardswish +\(1,16,320,320\) /m);
  assert.match(text, /^p2o\.Resize\.0 +nn\.Upsample +\(1,96,40,40\) /m);
  assert.match(text, /^sigmoid_0\.tmp_0 +pnnx\.Output/m);
  assert.match(text, /\n\d+ nodes, 1\.17 M parameters \(\d+\), 2\.3\d G multiply-accumulates$/);
});
