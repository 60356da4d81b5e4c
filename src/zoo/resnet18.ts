// torchvision's ResNet-18 with batch-norm folded into the convolutions, node for node as pnnx exports it
// (../shared/models/topologies/resnet18_batch1.pnnx.param): basic blocks of two 3x3 convs and a residual
// add, a strided 1x1 projection where the shape changes.

import type { Graph, Value } from '../graph/graph.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { GraphBuilder } from './builder.ts';
import { initWeights } from './init-weights.ts';
import type { ZooOptions } from './options.ts';

function basicBlock(b: GraphBuilder, x: Value, channels: number, stride: number, name: string): Value {
  const y = b.act('nn.ReLU', b.conv(x, channels, { kernel: 3, stride, padding: 1 }), `${name}.relu`);
  // pnnx emits the projection after the first conv's activation and before the second conv.
  const identity = stride !== 1 || x.shape![1] !== channels ? b.conv(x, channels, { kernel: 1, stride, name: undefined }) : x;
  const z = b.conv(y, channels, { kernel: 3, padding: 1 });
  return b.act('nn.ReLU', b.expression('add(@0,@1)', [z, identity]), b.uniqueName('pnnx_unique'));
}

export function resnet18(options: ZooOptions = {}): Graph {
  const b = new GraphBuilder('resnet18 (zoo)');
  const x = b.input([options.batch ?? 1, 3, options.size ?? 224, options.size ?? 224]);
  let y = b.act('nn.ReLU', b.conv(x, 64, { kernel: 7, stride: 2, padding: 3 }), 'relu');
  y = b.maxPool(y, 3, 2, 1, 'maxpool');
  for (const [layer, channels] of [[1, 64], [2, 128], [3, 256], [4, 512]] as const) {
    y = basicBlock(b, y, channels, layer === 1 ? 1 : 2, `layer${layer}.0`);
    y = basicBlock(b, y, channels, 1, `layer${layer}.1`);
  }
  y = b.adaptiveAvgPool(y, 'nn.AdaptiveAvgPool2d', 'avgpool');
  y = b.linear(b.flatten(y, 1), 1000, 'fc');
  b.output(y);
  if (options.weights ?? true) initWeights(b.graph, defaultRegistry, options.seed ?? 1);
  return b.graph;
}
