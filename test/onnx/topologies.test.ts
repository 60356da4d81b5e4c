// The full-size graphs of ../shared/models/topologies with seeded weights, at 64x64, exported to ONNX:
// flowinfer's reference and fast engines agree with onnxruntime-node within 1e-4 of the largest output
// magnitude. The YOLOv5 graphs store their Detect grids for 320 or 640 inputs, so at 64x64 the head's
// regenerated-grid path is exercised too.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';
import { randomTensor } from './helpers.ts';
import { checkModel } from './model-check.ts';

const CASES: Array<[string, number[]]> = [
  ['resnet18_batch1.pnnx.param', [1, 3, 64, 64]],
  ['mobilenet_v2.pnnx.param', [2, 3, 64, 64]],
  ['mobile_224.pnnx.param', [1, 3, 64, 64]],
  ['yolov5n_small.pnnx.param', [1, 3, 64, 64]],
  ['yolov5s_batch4.pnnx.param', [2, 3, 64, 64]],
];

for (const [file, shape] of CASES) {
  test(`${file} with seeded weights at ${shape.join('x')} agrees with onnxruntime`, { skip: SKIP_SHARED }, async (t) => {
    const graph = parsePnnxParam(readFileSync(topology(file)), file);
    initWeights(graph, defaultRegistry, 1);
    await checkModel(t, graph, { pnnx_input_0: randomTensor(shape, 5, 0, 1) });
  });
}
