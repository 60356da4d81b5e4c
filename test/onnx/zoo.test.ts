// The zoo's ResNet-18, MobileNetV2 and YOLOv5s (seeded weights) at 64x64, batch 1 and 2: flowinfer's
// reference and fast engines agree with onnxruntime-node on the exported model within 1e-4 of the
// largest output magnitude.
import { test } from 'node:test';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import type { ZooOptions } from '../../src/zoo/options.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { randomTensor } from './helpers.ts';
import { checkModel } from './model-check.ts';

const MODELS: Array<[string, (o: ZooOptions) => Graph]> = [['resnet18', resnet18], ['mobilenet_v2', mobilenetV2], ['yolov5s', yolov5s]];

for (const [name, build] of MODELS) {
  // Built once (seeding ResNet-18's 11.7 M weights takes about a second); each batch size re-infers shapes.
  let graph: Graph | undefined;
  for (const batch of [1, 2]) {
    test(`zoo:${name} batch ${batch} at 64x64 agrees with onnxruntime`, async (t) => {
      graph ??= build({ size: 64, seed: 3 });
      await checkModel(t, graph, { pnnx_input_0: randomTensor([batch, 3, 64, 64], 7 + batch, 0, 1) });
    });
  }
}
