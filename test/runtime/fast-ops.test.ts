// The pooling, elementwise, resize, softmax and concatenation lowerings inside the fast engine: small
// graphs run through loadModel(graph, { engine: 'fast' }) equal { engine: 'reference' }, and the same
// graphs built straight into a FastEngine report no node on the fallback (FastEngine.stats); nor do the
// real topologies (their convolutions and the YOLOv5 Detect head have lowerings of their own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { validateGraph } from '../../src/graph/validate.ts';
import { lowerBinaryExpression } from '../../src/ops/fast/eltwise-binary.ts';
import { lowerNode } from '../../src/ops/fast/index.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { FastEngine } from '../../src/runtime/fast/engine.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { assertClose } from '../helpers/compare.ts';
import { SKIP_SHARED, topology } from '../helpers/shared.ts';

function random(shape: Shape, seed: number, lo = -3, hi = 3): Tensor {
  const data = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(data, lo, hi);
  return Tensor.f32(shape, data);
}

/** A graph from .pnnx.param text, with seeded weights for any it declares. */
function graphOf(name: string, text: string): Graph {
  const g = parsePnnxParam(text, `${name}.pnnx.param`);
  initWeights(g, defaultRegistry, 7);
  return g;
}

/** The graph built straight into a FastEngine (no passes): its outputs and the nodes on the fallback. */
async function runDirect(g: Graph, inputs: Tensor[], inputShape?: Shape[]): Promise<{ outputs: Tensor[]; fallback: readonly string[] }> {
  validateGraph(g);
  const ops = defaultRegistry.bindAll(g);
  inferShapes(g, ops, inputShape);
  const engine = await FastEngine.create(g, ops, { threads: 2 });
  try {
    const result = await engine.run(new Map(g.inputs.map((v, i) => [v, inputs[i]!])));
    return { outputs: g.outputs.map((v) => result.values.get(v)!), fallback: engine.stats.fallbackNodes };
  } finally {
    await engine.dispose();
  }
}

/** Runs `make()` on the reference engine, on the fast engine through loadModel, and straight in a FastEngine. */
async function check(name: string, make: () => Graph, inputs: Tensor[], relative = 1e-5, allowedFallback: RegExp[] = []): Promise<void> {
  const reference = await loadModel(make(), { engine: 'reference' });
  const fast = await loadModel(make(), { engine: 'fast', threads: 2 });
  try {
    const want = Object.values(await reference.run(inputs));
    const got = Object.values(await fast.run(inputs));
    want.forEach((w, i) => assertClose(got[i]!, w, relative, `${name} output ${i} (loadModel)`));
    const direct = await runDirect(make(), inputs);
    want.forEach((w, i) => assertClose(direct.outputs[i]!, w, relative, `${name} output ${i} (FastEngine)`));
    assert.deepEqual(direct.fallback.filter((n) => !allowedFallback.some((r) => r.test(n))), [], `${name}: nodes on the fallback`);
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
}

const header = (ops: number, operands: number) => `7767517\n${ops} ${operands}\n`;

test('pooling: max (ceil_mode, dilation), average (padding, count_include_pad off, override), adaptive, global', async () => {
  const text = header(9, 8) + [
    'pnnx.Input in 0 1 x #x=(3,13,11,9)f32',
    'nn.MaxPool2d mp 1 1 x a ceil_mode=True dilation=(1,1) kernel_size=(3,3) padding=(1,1) return_indices=False stride=(2,2)',
    'F.max_pool2d fmp 1 1 x b ceil_mode=False dilation=(2,1) kernel_size=(2,3) padding=(1,0) return_indices=False stride=(1,2)',
    'nn.AvgPool2d ap 1 1 x c ceil_mode=True count_include_pad=False kernel_size=(3,3) padding=(1,1) stride=(2,2)',
    'F.avg_pool2d fap 1 1 x d ceil_mode=False count_include_pad=True divisor_override=5 kernel_size=(2,2) padding=(1,1) stride=(3,3)',
    'nn.AdaptiveAvgPool2d gap 1 1 x e output_size=(1,1)',
    'nn.AdaptiveAvgPool2d aap 1 1 x f output_size=(3,2)',
    'nn.AdaptiveMaxPool2d amp 1 1 x g output_size=(2,4) return_indices=False',
    'pnnx.Output out 7 0 a b c d e f g',
  ].join('\n') + '\n';
  await check('pools', () => graphOf('pools', text), [random([3, 13, 11, 9], 1)]);
});

const ACTIVATIONS = [
  'nn.ReLU', 'nn.ReLU6', 'nn.Sigmoid', 'nn.SiLU', 'nn.Hardswish', 'nn.Hardsigmoid', 'nn.LeakyReLU negative_slope=0.2', 'nn.Tanh',
  'nn.ELU alpha=0.5', 'F.relu', 'F.silu', 'torch.sigmoid', 'F.hardsigmoid',
];

test('standalone activations on NHWC and plain tensors', async () => {
  for (const [rank, shape] of [[4, [2, 7, 5, 3]], [2, [6, 33]]] as const) {
    const lines = ACTIVATIONS.map((spec, i) => {
      const [type, ...params] = spec.split(' ');
      return `${type} act${i} 1 1 x y${i} ${params.join(' ')}`.trimEnd();
    });
    const text = header(ACTIVATIONS.length + 2, ACTIVATIONS.length + 1) + [
      `pnnx.Input in 0 1 x #x=(${shape.join(',')})f32`,
      ...lines,
      `pnnx.Output out ${ACTIVATIONS.length} 0 ${ACTIVATIONS.map((_, i) => `y${i}`).join(' ')}`,
    ].join('\n') + '\n';
    await check(`activations rank ${rank}`, () => graphOf('activations', text), [random([...shape], 2, -8, 8)]);
  }
});

test('unfused BatchNorm2d and BatchNorm1d as a channel affine', async () => {
  const text = header(5, 4) + [
    'pnnx.Input in0 0 1 x #x=(2,11,6,5)f32',
    'pnnx.Input in1 0 1 v #v=(4,11)f32',
    'nn.BatchNorm2d bn 1 1 x y affine=True eps=1e-05 num_features=11 @running_mean=(11)f32 @running_var=(11)f32 @weight=(11)f32 @bias=(11)f32',
    'nn.BatchNorm1d bn1 1 1 v w affine=True eps=1e-03 num_features=11 @running_mean=(11)f32 @running_var=(11)f32 @weight=(11)f32 @bias=(11)f32',
    'pnnx.Output out 2 0 y w',
  ].join('\n') + '\n';
  await check('batchnorm', () => graphOf('batchnorm', text), [random([2, 11, 6, 5], 3), random([4, 11], 4)], 1e-5);
});

test('binary expressions: same shape, per-channel both ways, per-sample channel, constants, plain row vectors', async () => {
  const text = header(12, 11) + [
    'pnnx.Input in0 0 1 x #x=(2,10,5,7)f32',
    'pnnx.Input in1 0 1 s #s=(1,10,1,1)f32',
    'pnnx.Input in2 0 1 t #t=(2,10,1,1)f32',
    'pnnx.Input in3 0 1 p #p=(6,9)f32',
    'pnnx.Input in4 0 1 r #r=(9)f32',
    'pnnx.Expression e0 2 1 x x a expr=add(@0,@1)',
    'pnnx.Expression e1 2 1 s x b expr=mul(@0,@1)',
    'pnnx.Expression e2 2 1 t x c expr=sub(@0,@1)',
    'pnnx.Expression e3 1 1 x d expr=div(2.5,@0)',
    'pnnx.Expression e4 2 1 x t e expr=maximum(@0,@1)',
    'pnnx.Expression e5 2 1 p r f expr=sub(@0,@1)',
    'pnnx.Output out 6 0 a b c d e f',
  ].join('\n') + '\n';
  const inputs = [random([2, 10, 5, 7], 5), random([1, 10, 1, 1], 6), random([2, 10, 1, 1], 7), random([6, 9], 8), random([9], 9)];
  await check('binary', () => graphOf('binary', text), inputs, 1e-6);
});

test('the binary kernel takes exactly the expressions that are one binary op of two operands (or an operand and a constant)', () => {
  const exprs: Array<[string, boolean]> = [
    ['add(@0,@1)', true], ['mul(@1,@0)', true], ['sub(@0,3)', true], ['div(0.5,@1)', true], ['maximum(@0,@1)', true], ['min(@1,@1)', true],
    ['add(add(@0,@1),@1)', false], ['pow(@0,@1)', false], ['neg(@0)', false], ['add(@1,@1)', true],
  ];
  for (const [expr, covered] of exprs) {
    const text = header(4, 3) + `pnnx.Input in0 0 1 x #x=(1,6,4,4)f32\npnnx.Input in1 0 1 s #s=(1,6,1,1)f32\npnnx.Expression e 2 1 x s y expr=${expr}\npnnx.Output out 1 0 y\n`;
    const g = graphOf('covered', text);
    inferShapes(g, defaultRegistry.bindAll(g));
    assert.equal(lowerBinaryExpression(g.nodes.find((n) => n.name === 'e')!) !== undefined, covered, expr);
  }
});

test('resizing: nearest x2 (YOLOv5), bilinear align_corners by size, bilinear by a non-integer scale, nearest-exact', async () => {
  const text = header(6, 5) + [
    'pnnx.Input in 0 1 x #x=(2,9,5,6)f32',
    'nn.Upsample up 1 1 x a mode=nearest scale_factor=(2.000000e+00,2.000000e+00) size=None',
    'F.interpolate bi 1 1 x b align_corners=True mode=bilinear size=(7,11)',
    'F.upsample bs 1 1 x c align_corners=False mode=bilinear scale_factor=(1.500000e+00,2.300000e+00)',
    'F.interpolate ne 1 1 x d mode=nearest-exact scale_factor=(1.700000e+00,0.600000e+00)',
    'pnnx.Output out 4 0 a b c d',
  ].join('\n') + '\n';
  await check('resize', () => graphOf('resize', text), [random([2, 9, 5, 6], 10)]);
});

test('softmax and log-softmax along channels (NHWC) and the last dim; other dims stay on the fallback', async () => {
  const text = header(6, 5) + [
    'pnnx.Input in0 0 1 x #x=(2,21,4,3)f32',
    'pnnx.Input in1 0 1 p #p=(5,85)f32',
    'nn.Softmax sm 1 1 x a dim=1',
    'F.log_softmax lsm 1 1 p b dim=-1',
    'F.softmax sm2 1 1 x c dim=2',
    'pnnx.Output out 3 0 a b c',
  ].join('\n') + '\n';
  const x = random([2, 21, 4, 3], 11, -1000, 1000);
  await check('softmax', () => graphOf('softmax', text), [x, random([5, 85], 12, -30, 30)], 1e-5, [/^F\.softmax "sm2"$/]);
});

test('torch.cat along channels of NHWC tensors, along H, and along dims of plain tensors', async () => {
  const text = header(9, 8) + [
    'pnnx.Input in0 0 1 x #x=(2,5,4,3)f32',
    'pnnx.Input in1 0 1 y #y=(2,7,4,3)f32',
    'pnnx.Input in2 0 1 p #p=(3,6)f32',
    'pnnx.Input in3 0 1 q #q=(3,2)f32',
    'torch.cat c1 3 1 x y x a dim=1',
    'torch.cat c2 2 1 x x b dim=2',
    'torch.cat c3 2 1 p q c dim=-1',
    'torch.cat c4 2 1 p p d dim=0',
  ].join('\n') + '\npnnx.Output out 4 0 a b c d\n';
  const inputs = [random([2, 5, 4, 3], 13), random([2, 7, 4, 3], 14), random([3, 6], 15), random([3, 2], 16)];
  await check('cat', () => graphOf('cat', text), inputs, 0);
});

test('patterns outside the kernels decline cleanly: other lowerings or the fallback run them, results still equal', async () => {
  const text = header(9, 8) + [
    'pnnx.Input in0 0 1 x #x=(2,1,5,7)f32',
    'pnnx.Input in1 0 1 s #s=(2,6,1,1)f32',
    'pnnx.Input in2 0 1 v #v=(3,6,5)f32',
    'pnnx.Expression both 2 1 x s a expr=add(@0,@1)',
    'pnnx.Expression deep 2 1 x x b expr=add(mul(@0,@1),1)',
    'nn.MaxPool2d mp3 1 1 v c kernel_size=(2,2)',
    'nn.BatchNorm1d bn3 1 1 v d affine=True eps=1e-05 num_features=6 @running_mean=(6)f32 @running_var=(6)f32 @weight=(6)f32 @bias=(6)f32',
    'F.interpolate cubic 1 1 x e align_corners=False mode=bicubic size=(4,9)',
    'pnnx.Output out 5 0 a b c d e',
  ].join('\n') + '\n';
  const g = graphOf('decline', text);
  const ops = defaultRegistry.bindAll(g);
  inferShapes(g, ops);
  const fast = (name: string) => lowerNode(g.nodes.find((n) => n.name === name)!, ops.get(g.nodes.find((n) => n.name === name)!)!).fast;
  // Two broadcast operands, or a deeper expression: the compiled expression kernel (still fast).
  assert.equal(fast('both'), true);
  assert.equal(fast('deep'), true);
  const inputs = [random([2, 1, 5, 7], 18), random([2, 6, 1, 1], 19), random([3, 6, 5], 20)];
  // Rank-3 pooling and BatchNorm1d over (N,C,L) are stored plain (the channel is not innermost); bicubic has no kernel.
  await check('decline', () => graphOf('decline', text), inputs, 1e-5, [/^nn\.MaxPool2d "mp3"$/, /^nn\.BatchNorm1d "bn3"$/, /^F\.interpolate "cubic"$/]);
});

/** Fallback nodes of a graph built into a FastEngine. */
async function fallbackOf(g: Graph, inputShape?: Shape[]): Promise<string[]> {
  validateGraph(g);
  const ops = defaultRegistry.bindAll(g);
  inferShapes(g, ops, inputShape);
  const engine = await FastEngine.create(g, ops, { threads: 2 });
  await engine.dispose();
  return [...engine.stats.fallbackNodes];
}

test('ResNet-18, MobileNetV2 and YOLOv5s (zoo): nothing on the fallback', async () => {
  for (const make of [() => resnet18({ size: 32 }), () => mobilenetV2({ size: 32 }), () => yolov5s({ size: 64 })]) {
    assert.deepEqual(await fallbackOf(make()), []);
  }
});

test('mobile_224 (SE blocks: Hardsigmoid and a per-channel mul): fast equals reference, no fallback', { skip: SKIP_SHARED }, async () => {
  const make = () => graphOf('mobile_224', readFileSync(topology('mobile_224.pnnx.param'), 'utf8'));
  assert.deepEqual(await fallbackOf(make(), [[1, 3, 64, 64]]), []);
  const x = random([1, 3, 64, 64], 17, 0, 1);
  const reference = await loadModel(make(), { engine: 'reference', inputShape: [[1, 3, 64, 64]] });
  const fast = await loadModel(make(), { engine: 'fast', threads: 2, inputShape: [[1, 3, 64, 64]] });
  try {
    const want = Object.values(await reference.run([x]))[0]!;
    assertClose(Object.values(await fast.run([x]))[0]!, want, 1e-4, 'mobile_224');
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
});

test('YOLOv5s batch 4 topology (SPPF pools, nearest upsample, cat, Detect): nothing on the fallback', { skip: SKIP_SHARED }, async () => {
  const g = graphOf('yolov5s_batch4', readFileSync(topology('yolov5s_batch4.pnnx.param'), 'utf8'));
  assert.deepEqual(await fallbackOf(g, [[1, 3, 64, 64]]), []);
});
