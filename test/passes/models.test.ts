// Every model under ../shared and every zoo builder: outputs at optimisation level 0 and at level 3 agree
// within 1e-4 (relative to the largest output), on the reference engine at small inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { loadPnnxFiles } from '../../src/format/pnnx/load.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { numel } from '../../src/tensor/shape.ts';
import { assertClose } from '../helpers/compare.ts';
import { SKIP_SHARED, kuiper, topology } from '../helpers/shared.ts';
import { kuiperCases, makeInput } from '../helpers/kuiper.ts';

async function compareLevels(make: () => Graph, inputs: Tensor[], what: string): Promise<{ before: number; after: number }> {
  const plain = await loadModel(make(), { engine: 'reference', optLevel: 0 });
  const optimised = await loadModel(make(), { engine: 'reference', optLevel: 3 });
  const want = await plain.run(inputs);
  const got = await optimised.run(inputs);
  for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-4, `${what} ${k}`);
  return { before: plain.graph.nodes.length, after: optimised.graph.nodes.length };
}

function randomInput(shape: number[], seed = 4): Tensor {
  const data = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(data, 0, 1);
  return Tensor.f32(shape, data);
}

const fromTopology = (file: string) => () => {
  const g = parsePnnxParam(readFileSync(topology(file)), file);
  initWeights(g, defaultRegistry, 1);
  return g;
};

test('zoo models: level 3 equals level 0, with fewer nodes', async () => {
  const counts: Record<string, string> = {};
  for (const [name, make] of [['resnet18', () => resnet18({ size: 64 })], ['mobilenetV2', () => mobilenetV2({ size: 64 })], ['yolov5s', () => yolov5s({ size: 64 })]] as const) {
    const { before, after } = await compareLevels(make, [randomInput([1, 3, 64, 64])], name);
    assert.ok(after < before, `${name}: ${before} -> ${after}`);
    counts[name] = `${before} -> ${after}`;
  }
  // ResNet-18: 8 residual adds and 17 ReLUs fuse into the convolutions; MobileNetV2: 10 adds and 35 ReLU6;
  // YOLOv5s: 57 SiLU (its residual adds follow an activation, so they stay).
  assert.deepEqual(counts, { resnet18: '51 -> 26', mobilenetV2: '102 -> 57', yolov5s: '142 -> 85' });
});

for (const file of ['resnet18_batch1.pnnx.param', 'mobilenet_v2.pnnx.param', 'mobile_224.pnnx.param', 'yolov5n_small.pnnx.param', 'yolov5s_batch4.pnnx.param']) {
  test(`${file}: level 3 equals level 0`, { skip: SKIP_SHARED }, async () => {
    const make = () => {
      const g = fromTopology(file)();
      return g;
    };
    const size = 64;
    const model = await loadModel(make(), { engine: 'reference', optLevel: 0, inputShape: [[1, 3, size, size]] });
    const input = randomInput([1, 3, size, size]);
    const want = await model.run(input);
    const optimised = await loadModel(make(), { engine: 'reference', optLevel: 3, inputShape: [[1, 3, size, size]] });
    const got = await optimised.run(input);
    for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-4, `${file} ${k}`);
  });
}

test('every KuiperInfer model: level 3 equals level 0', { skip: SKIP_SHARED }, async () => {
  for (const c of kuiperCases()) {
    await compareLevels(() => loadPnnxFiles(kuiper(c.param), { bin: kuiper(c.bin) }), [makeInput(c)], c.id);
  }
});
