// Convolutions on the fast engine: small graphs that take every conv path (row-tap stem, depthwise,
// 1x1 GEMM, IGEMM with groups, dilation, reflect / replicate / circular / asymmetric 'same' padding),
// fused activations and fused residuals, equal the reference engine within 1e-5; and every nn.Conv2d of
// the zoo's models and of the real topologies lowers to a fast kernel, none to the fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { validateGraph } from '../../src/graph/validate.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { FastEngine } from '../../src/runtime/fast/engine.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { initWeights, mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { assertClose } from '../helpers/compare.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';

const conv = (name: string, inputs: string, output: string, cin: number, cout: number, extra: string, weight: string) =>
  `nn.Conv2d ${name} ${inputs.split(' ').length} 1 ${inputs} ${output} bias=True in_channels=${cin} out_channels=${cout} ${extra} @bias=(${cout})f32 @weight=(${cout},${weight})f32`;

// Every path, each epilogue form: stem (row taps) + ReLU; depthwise 3x3 + ReLU6; 1x1 GEMM + residual +
// Hardswish; depthwise 5x5 + residual; grouped 3x3 stride 2 dilation 2 reflect + LeakyReLU; 4x4 'same'
// (asymmetric) circular + Hardsigmoid + residual; depthwise with replicate padding (IGEMM); 1x1 stride 2
// with padding + SiLU (IGEMM).
const PATHS = `7767517
10 9
pnnx.Input in 0 1 x #x=(2,3,21,19)f32
${conv('stem', 'x', 'a', 3, 12, 'kernel_size=(7,7) stride=(2,2) padding=(3,3) dilation=(1,1) groups=1 padding_mode=zeros flowinfer.activation=nn.ReLU', '3,7,7')}
${conv('dw3', 'a', 'b', 12, 12, 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(1,1) groups=12 padding_mode=zeros flowinfer.activation=nn.ReLU6', '1,3,3')}
${conv('pw', 'b a', 'c', 12, 12, 'kernel_size=(1,1) stride=(1,1) padding=(0,0) dilation=(1,1) groups=1 padding_mode=zeros flowinfer.residual=True flowinfer.activation=nn.Hardswish', '12,1,1')}
${conv('dw5', 'c b', 'd', 12, 12, 'kernel_size=(5,5) stride=(1,1) padding=(2,2) dilation=(1,1) groups=12 padding_mode=zeros flowinfer.residual=True', '1,5,5')}
${conv('grouped', 'd', 'e', 12, 10, 'kernel_size=(3,3) stride=(2,2) padding=(2,2) dilation=(2,2) groups=2 padding_mode=reflect flowinfer.activation=nn.LeakyReLU flowinfer.activation.negative_slope=0.2', '6,3,3')}
${conv('same', 'e e', 'f', 10, 10, 'kernel_size=(4,4) stride=(1,1) padding=same dilation=(1,1) groups=1 padding_mode=circular flowinfer.residual=True flowinfer.activation=nn.Hardsigmoid', '10,4,4')}
${conv('dwpad', 'f', 'g', 10, 10, 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(1,1) groups=10 padding_mode=replicate', '1,3,3')}
${conv('strided', 'g', 'h', 10, 9, 'kernel_size=(1,1) stride=(2,2) padding=(1,1) dilation=(1,1) groups=1 padding_mode=zeros flowinfer.activation=nn.SiLU', '10,1,1')}
pnnx.Output out 1 0 h
`;

// The unfused forms the optimiser folds (activations and residual adds as separate nodes), a ResNet
// basic block and a MobileNetV2 inverted residual.
const BLOCKS = `7767517
13 12
pnnx.Input in 0 1 x #x=(1,16,15,13)f32
${conv('c1', 'x', 'a', 16, 16, 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(1,1) groups=1 padding_mode=zeros', '16,3,3')}
nn.ReLU r1 1 1 a b
${conv('c2', 'b', 'c', 16, 16, 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(1,1) groups=1 padding_mode=zeros', '16,3,3')}
pnnx.Expression add1 2 1 c x d expr=add(@0,@1)
nn.ReLU r2 1 1 d e
${conv('expand', 'e', 'f', 16, 40, 'kernel_size=(1,1) stride=(1,1) padding=(0,0) dilation=(1,1) groups=1 padding_mode=zeros', '16,1,1')}
nn.ReLU6 r3 1 1 f g
${conv('depth', 'g', 'h', 40, 40, 'kernel_size=(3,3) stride=(1,1) padding=(1,1) dilation=(1,1) groups=40 padding_mode=zeros', '1,3,3')}
nn.ReLU6 r4 1 1 h i
${conv('project', 'i', 'j', 40, 16, 'kernel_size=(1,1) stride=(1,1) padding=(0,0) dilation=(1,1) groups=1 padding_mode=zeros', '40,1,1')}
pnnx.Expression add2 2 1 e j k expr=add(@0,@1)
pnnx.Output out 1 0 k
`;

function graphOf(text: string, name: string): Graph {
  const g = parsePnnxParam(text, name);
  initWeights(g, defaultRegistry, 3);
  return g;
}

function random(shape: number[], seed: number): Tensor {
  const data = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(data, -1, 1);
  return Tensor.f32(shape, data);
}

async function compare(make: () => Graph, shape: number[], tolerance: number, what: string): Promise<void> {
  const reference = await loadModel(make(), { engine: 'reference' });
  const fast = await loadModel(make(), { engine: 'fast', threads: 2 });
  try {
    const x = random(shape, 9);
    const want = await reference.run(x);
    for (let run = 0; run < 2; run++) {
      const got = await fast.run(x);
      for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, tolerance, `${what} ${k} (run ${run})`);
    }
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
}

test('every conv path, activation and residual form equals the reference engine within 1e-5', async () => {
  await compare(() => graphOf(PATHS, 'paths.pnnx.param'), [2, 3, 21, 19], 1e-5, 'paths');
});

test('a ResNet basic block and a MobileNetV2 inverted residual (fused by the optimiser) equal the reference within 1e-5', async () => {
  await compare(() => graphOf(BLOCKS, 'blocks.pnnx.param'), [1, 16, 15, 13], 1e-5, 'blocks');
});

/** The fast engine built for `graph` (shapes inferred from its annotations or `input`). */
async function engineFor(graph: Graph, input?: number[]): Promise<FastEngine> {
  validateGraph(graph);
  const ops = defaultRegistry.bindAll(graph);
  inferShapes(graph, ops, input ? [input] : undefined);
  return FastEngine.create(graph, ops, { threads: 2 });
}

async function assertNoConvFallback(graph: Graph, what: string, input?: number[]): Promise<void> {
  const convs = graph.nodes.filter((n) => n.type === 'nn.Conv2d').length;
  const engine = await engineFor(graph, input);
  try {
    const convFallbacks = engine.stats.fallbackNodes.filter((n) => n.startsWith('nn.Conv2d'));
    assert.deepEqual(convFallbacks, [], `${what}: convolutions on the fallback`);
    assert.ok(convs > 0 && engine.stats.fastNodes >= convs, `${what}: ${engine.stats.fastNodes} fast nodes for ${convs} convolutions`);
  } finally {
    await engine.dispose();
  }
}

for (const [name, make] of [
  ['ResNet-18', () => resnet18({ size: 64 })],
  ['MobileNetV2', () => mobilenetV2({ size: 64 })],
  ['YOLOv5s', () => yolov5s({ size: 64 })],
] as const) {
  test(`${name} (zoo, 64 px): no convolution runs on the fallback`, async () => {
    await assertNoConvFallback(make(), name);
  });
}

for (const file of ['resnet18_batch1.pnnx.param', 'mobilenet_v2.pnnx.param', 'mobile_224.pnnx.param', 'yolov5s_batch4.pnnx.param']) {
  test(`${file}: no convolution runs on the fallback`, { skip: SKIP_SHARED }, async () => {
    const graph = parsePnnxParam(readFileSync(topology(file)), file);
    initWeights(graph, defaultRegistry, 1);
    await assertNoConvFallback(graph, file, file.startsWith('yolo') ? [1, 3, 64, 64] : undefined);
  });
}

test('mobile_224 (depthwise 5x5, squeeze-excitation, Hardswish) with seeded weights: fast equals reference within 1e-4', { skip: SKIP_SHARED }, async () => {
  const make = () => {
    const g = parsePnnxParam(readFileSync(topology('mobile_224.pnnx.param')), 'mobile_224.pnnx.param');
    initWeights(g, defaultRegistry, 1);
    return g;
  };
  const reference = await loadModel(make(), { engine: 'reference', inputShape: [[1, 3, 96, 96]] });
  const fast = await loadModel(make(), { engine: 'fast', threads: 2, inputShape: [[1, 3, 96, 96]] });
  try {
    const x = random([1, 3, 96, 96], 4);
    const want = await reference.run(x);
    const got = await fast.run(x);
    for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-4, `mobile_224 ${k}`);
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
});
