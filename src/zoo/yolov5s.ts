// YOLOv5s (v6 architecture: 6x6 stem, C3 blocks, SPPF) with batch-norm folded, node for node as pnnx
// exports it (../shared/models/topologies/yolov5s_batch4.pnnx.param), ending in the Detect head kept whole.

import type { Graph, Value } from '../graph/graph.ts';
import { defaultRegistry } from '../ops/registry.ts';
import type { Shape } from '../tensor/shape.ts';
import { GraphBuilder } from './builder.ts';
import { initWeights } from './init-weights.ts';
import type { ZooOptions } from './options.ts';

/** Conv + SiLU, YOLOv5's `Conv` module. */
function conv(b: GraphBuilder, x: Value, out: number, kernel: number, stride: number, name: string): Value {
  const y = b.conv(x, out, { kernel, stride, padding: Math.floor(kernel / 2) - (kernel === 6 ? 1 : 0), name: `${name}.conv` });
  return b.act('nn.SiLU', y, `${name}.act`);
}

/** C3: two 1x1 branches, n bottlenecks on the first, concatenated and fused by a third 1x1. */
function c3(b: GraphBuilder, x: Value, out: number, n: number, shortcut: boolean, name: string): Value {
  const hidden = out / 2;
  let y = conv(b, x, hidden, 1, 1, `${name}.cv1`);
  for (let i = 0; i < n; i++) {
    const z = conv(b, conv(b, y, hidden, 1, 1, `${name}.m.${i}.cv1`), hidden, 3, 1, `${name}.m.${i}.cv2`);
    y = shortcut ? b.expression('add(@0,@1)', [y, z]) : z;
  }
  const side = conv(b, x, hidden, 1, 1, `${name}.cv2`);
  return conv(b, b.cat([y, side], 1), out, 1, 1, `${name}.cv3`);
}

/** SPPF: three chained 5x5 max pools, all four stages concatenated. */
function sppf(b: GraphBuilder, x: Value, out: number, name: string): Value {
  const y = conv(b, x, x.shape![1]! / 2, 1, 1, `${name}.cv1`);
  const p1 = b.maxPool(y, 5, 1, 2, `${name}.m`);
  const p2 = b.maxPool(p1, 5, 1, 2, b.uniqueName('pnnx_unique'));
  const p3 = b.maxPool(p2, 5, 1, 2, b.uniqueName('pnnx_unique'));
  return conv(b, b.cat([y, p1, p2, p3], 1), out, 1, 1, `${name}.cv2`);
}

function detect(b: GraphBuilder, maps: readonly Value[], size: number, classes: number): Value {
  const outputs = 3 * (5 + classes);
  const weights: Record<string, Shape> = {};
  maps.forEach((m, i) => {
    weights[`m.${i}.bias`] = [outputs];
    weights[`m.${i}.weight`] = [outputs, m.shape![1]!, 1, 1];
  });
  // The grid and anchor-grid constants in the order pnnx declares them.
  const [s8, s16, s32] = [size / 8, size / 16, size / 32];
  const grid = (s: number): Shape => [1, 3, s, s, 2];
  Object.assign(weights, { pnnx_0: grid(s32), pnnx_1: grid(s32), pnnx_2: grid(s16), pnnx_3: grid(s16), pnnx_4: grid(s8), pnnx_5: [3], pnnx_6: grid(s8) });
  return b.add('models.yolo.Detect', '24', maps, {}, weights)[0]!;
}

export function yolov5s(options: ZooOptions & { classes?: number } = {}): Graph {
  const size = options.size ?? 640;
  if (size % 32 !== 0) throw new RangeError(`yolov5s: size ${size} must be a multiple of 32`);
  const b = new GraphBuilder('yolov5s (zoo)');
  const x = b.input([options.batch ?? 1, 3, size, size]);
  const s1 = conv(b, conv(b, x, 32, 6, 2, 'model.0'), 64, 3, 2, 'model.1');
  const p3 = c3(b, conv(b, c3(b, s1, 64, 1, true, 'model.2'), 128, 3, 2, 'model.3'), 128, 2, true, 'model.4');
  const p4 = c3(b, conv(b, p3, 256, 3, 2, 'model.5'), 256, 3, true, 'model.6');
  const p5 = sppf(b, c3(b, conv(b, p4, 512, 3, 2, 'model.7'), 512, 1, true, 'model.8'), 512, 'model.9');
  const h10 = conv(b, p5, 256, 1, 1, 'model.10');
  const h13 = c3(b, b.cat([b.upsampleNearest(h10, 2, 'model.11'), p4], 1), 256, 1, false, 'model.13');
  const h14 = conv(b, h13, 128, 1, 1, 'model.14');
  const out3 = c3(b, b.cat([b.upsampleNearest(h14, 2, 'model.15'), p3], 1), 128, 1, false, 'model.17');
  const out4 = c3(b, b.cat([conv(b, out3, 128, 3, 2, 'model.18'), h14], 1), 256, 1, false, 'model.20');
  const out5 = c3(b, b.cat([conv(b, out4, 256, 3, 2, 'model.21'), h10], 1), 512, 1, false, 'model.23');
  b.output(detect(b, [out3, out4, out5], size, options.classes ?? 80));
  if (options.weights ?? true) initWeights(b.graph, defaultRegistry, options.seed ?? 1);
  return b.graph;
}
