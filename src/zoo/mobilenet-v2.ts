// torchvision's MobileNetV2 with batch-norm folded, node for node as pnnx exports it
// (../shared/models/topologies/mobilenet_v2.pnnx.param): inverted residual blocks (1x1 expand, ReLU6,
// 3x3 depthwise, ReLU6, 1x1 project, residual add when the shape is kept).

import type { Graph, Value } from '../graph/graph.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { GraphBuilder } from './builder.ts';
import { initWeights } from './init-weights.ts';
import type { ZooOptions } from './options.ts';

/** (expansion t, output channels c, repeats n, first stride s), from the MobileNetV2 paper's table 2. */
const STAGES: ReadonlyArray<readonly [number, number, number, number]> = [
  [1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1],
];

function invertedResidual(b: GraphBuilder, x: Value, t: number, out: number, stride: number, index: number): Value {
  const inChannels = x.shape![1]!;
  const hidden = inChannels * t;
  let y = x;
  let part = 0;
  if (t !== 1) y = b.act('nn.ReLU6', b.conv(y, hidden, { kernel: 1 }), `features.${index}.conv.${part++}.2`);
  y = b.act('nn.ReLU6', b.conv(y, hidden, { kernel: 3, stride, padding: 1, groups: hidden }), `features.${index}.conv.${part}.2`);
  y = b.conv(y, out, { kernel: 1 });
  return stride === 1 && inChannels === out ? b.expression('add(@0,@1)', [x, y]) : y;
}

export function mobilenetV2(options: ZooOptions = {}): Graph {
  const b = new GraphBuilder('mobilenet_v2 (zoo)');
  const x = b.input([options.batch ?? 1, 3, options.size ?? 224, options.size ?? 224]);
  let y = b.act('nn.ReLU6', b.conv(x, 32, { kernel: 3, stride: 2, padding: 1 }), 'features.0.2');
  let index = 1;
  for (const [t, c, n, s] of STAGES) {
    for (let i = 0; i < n; i++) y = invertedResidual(b, y, t, c, i === 0 ? s : 1, index++);
  }
  y = b.act('nn.ReLU6', b.conv(y, 1280, { kernel: 1 }), `features.${index}.2`);
  y = b.adaptiveAvgPool(y, 'F.adaptive_avg_pool2d', b.uniqueName('F.adaptive_avg_pool2d'));
  y = b.linear(b.flatten(y, 1), 1000, 'classifier.1');
  b.output(y);
  if (options.weights ?? true) initWeights(b.graph, defaultRegistry, options.seed ?? 1);
  return b.graph;
}
