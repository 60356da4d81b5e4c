// The real full-size graphs in ../shared/models/topologies, filled with seeded weights, run end to end on
// the reference engine at small inputs: every output finite and of the inferred shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { readFileSync } from 'node:fs';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { numel } from '../../src/tensor/shape.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';

const CASES: Array<[string, number[], number[]]> = [
  ['resnet18_batch1.pnnx.param', [1, 3, 64, 64], [1, 1000]],
  ['mobilenet_v2.pnnx.param', [2, 3, 64, 64], [2, 1000]],
  ['mobile_224.pnnx.param', [1, 3, 64, 64], [1, 1000]],
  ['yolov5n_small.pnnx.param', [1, 3, 64, 64], [1, 3 * (8 * 8 + 4 * 4 + 2 * 2), 85]],
  ['yolov5s_batch4.pnnx.param', [1, 3, 64, 64], [1, 3 * (8 * 8 + 4 * 4 + 2 * 2), 85]],
];

for (const [file, input, output] of CASES) {
  test(`${file} with seeded weights runs at ${input.join('x')}`, { skip: SKIP_SHARED }, async () => {
    const graph = parsePnnxParam(readFileSync(topology(file)), file);
    initWeights(graph, defaultRegistry, 1);
    const model = await loadModel(graph, { engine: 'reference', inputShape: [input] });
    const x = new Float32Array(numel(input));
    new SeededRandom(5).fillUniform(x, 0, 1);
    const out = Object.values(await model.run(Tensor.f32(input, x)))[0]!;
    await model.dispose();
    assert.deepEqual([...out.shape], output);
    assert.ok(out.f32.every(Number.isFinite), 'outputs are finite');
    assert.ok(new Set(out.f32.subarray(0, 50)).size > 10, 'outputs vary');
  });
}
