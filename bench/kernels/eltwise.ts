// Benchmark of the pooling, elementwise, resize, softmax and copy kernels on MobileNetV2 / mobile_224 /
// ResNet-18 / YOLOv5s-sized tensors (batch 1): `node --import tsx bench/kernels/eltwise.ts [--rounds N]
// [--only substring]`.
//
// 1. On Node 20 without relaxed SIMD, re-runs itself under --experimental-wasm-relaxed-simd so one run
//    measures both builds (plain only if that flag is refused).
// 2. Each case is one node of a .pnnx.param snippet, lowered by src/ops/fast (the engine's own lowering,
//    parameter blocks and tile plan) onto dense NHWC regions of one shared memory.
// 3. 1T: the main thread runs each step's units in one call. 2T: the main thread and one polling worker
//    take the step's tiles from an atomic counter, as the engine's two workers do (range-pair.ts: awake
//    threads, no wake-up latency in the figure).
// 4. Reports GB/s = (bytes of every input read once + the output written once) / time, best and median
//    of interleaved rounds (timing.ts), the best time per call, and the 2T / 1T ratio.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import type { Value } from '../../src/graph/graph.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { compileKernels, createKernelMemory, instantiateKernels, relaxedSimdSupported, type RangeKernelName, type SimdVariant } from '../../src/kernels/module.ts';
import { lowerNode } from '../../src/ops/fast/index.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import type { BuildContext } from '../../src/runtime/fast/lowering.ts';
import { layoutFor, viewFloats, type TensorView } from '../../src/runtime/fast/views.ts';
import { Arena } from '../../src/tensor/arena.ts';
import { numel } from '../../src/tensor/shape.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { RangePair } from './range-pair.ts';
import { measure, type Rate } from './timing.ts';

const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';

if (!relaxedSimdSupported() && process.env.FLOWINFER_BENCH_REEXEC === undefined) {
  const child = spawnSync(process.execPath, [RELAXED_FLAG, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, FLOWINFER_BENCH_REEXEC: '1' },
  });
  if (child.status === 0) process.exit(0);
  console.log(`(re-running under ${RELAXED_FLAG} failed with status ${child.status}: plain build only)\n`);
}

interface Case {
  readonly model: string;
  readonly name: string;
  /** Input shapes, then the node line reading in0, in1, ... and writing `out`. */
  readonly inputs: ReadonlyArray<readonly number[]>;
  readonly node: string;
}

const c = (model: string, name: string, inputs: ReadonlyArray<readonly number[]>, node: string): Case => ({ model, name, inputs, node });

const CASES: Case[] = [
  c('MobileNetV2', 'ReLU6 (unfused)', [[1, 96, 112, 112]], 'nn.ReLU6 op 1 1 in0 out'),
  c('MobileNetV2', 'residual add', [[1, 24, 56, 56], [1, 24, 56, 56]], 'pnnx.Expression op 2 1 in0 in1 out expr=add(@0,@1)'),
  c('MobileNetV2', 'global avg pool', [[1, 1280, 7, 7]], 'F.adaptive_avg_pool2d op 1 1 in0 out output_size=(1,1)'),
  c('mobile_224', 'Hardswish (unfused)', [[1, 16, 112, 112]], 'nn.Hardswish op 1 1 in0 out'),
  c('mobile_224', 'SE squeeze (global avg)', [[1, 16, 56, 56]], 'nn.AdaptiveAvgPool2d op 1 1 in0 out output_size=(1,1)'),
  c('mobile_224', 'SE excite mul (1,C,1,1)', [[1, 16, 1, 1], [1, 16, 56, 56]], 'pnnx.Expression op 2 1 in0 in1 out expr=mul(@0,@1)'),
  c('ResNet-18', 'max pool 3x3/2 p1', [[1, 64, 112, 112]], 'nn.MaxPool2d op 1 1 in0 out kernel_size=(3,3) stride=(2,2) padding=(1,1)'),
  c('ResNet-18', 'residual add', [[1, 64, 56, 56], [1, 64, 56, 56]], 'pnnx.Expression op 2 1 in0 in1 out expr=add(@0,@1)'),
  c('YOLOv5s', 'SiLU (unfused)', [[1, 32, 320, 320]], 'nn.SiLU op 1 1 in0 out'),
  c('YOLOv5s', 'C3 residual add', [[1, 32, 160, 160], [1, 32, 160, 160]], 'pnnx.Expression op 2 1 in0 in1 out expr=add(@0,@1)'),
  c('YOLOv5s', 'SPPF max pool 5x5/1 p2', [[1, 256, 20, 20]], 'nn.MaxPool2d op 1 1 in0 out kernel_size=(5,5) stride=(1,1) padding=(2,2)'),
  c('YOLOv5s', 'upsample nearest x2', [[1, 256, 20, 20]], 'nn.Upsample op 1 1 in0 out mode=nearest scale_factor=(2.0,2.0)'),
  c('YOLOv5s', 'upsample nearest x2', [[1, 128, 40, 40]], 'nn.Upsample op 1 1 in0 out mode=nearest scale_factor=(2.0,2.0)'),
  c('YOLOv5s', 'cat 2 along C', [[1, 128, 80, 80], [1, 128, 80, 80]], 'torch.cat op 2 1 in0 in1 out dim=1'),
  c('YOLOv5s', 'SPPF cat 4 along C', [[1, 256, 20, 20], [1, 256, 20, 20], [1, 256, 20, 20], [1, 256, 20, 20]], 'torch.cat op 4 1 in0 in1 in2 in3 out dim=1'),
  c('other', 'bilinear x2', [[1, 64, 56, 56]], 'F.interpolate op 1 1 in0 out mode=bilinear align_corners=False scale_factor=(2.0,2.0)'),
  c('other', 'avg pool 3x3/2 p1', [[1, 64, 56, 56]], 'nn.AvgPool2d op 1 1 in0 out kernel_size=(3,3) stride=(2,2) padding=(1,1)'),
  c('other', 'BatchNorm2d (unfused)', [[1, 64, 56, 56]], 'nn.BatchNorm2d op 1 1 in0 out affine=True eps=1e-05 num_features=64 @running_mean=(64)f32 @running_var=(64)f32 @weight=(64)f32 @bias=(64)f32'),
  c('other', 'softmax over 1000', [[64, 1000]], 'nn.Softmax op 1 1 in0 out dim=1'),
];

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const rounds = Number(option('rounds') ?? 15);
const only = option('only');
const cases = only ? CASES.filter((k) => `${k.model} ${k.name}`.toLowerCase().includes(only.toLowerCase())) : CASES;

interface Built {
  readonly k: Case;
  readonly steps: ReadonlyArray<{ fn: RangeKernelName; params: number; units: number; perTile: number; tiles: number }>;
  readonly bytes: number;
  readonly out: readonly number[];
}

// One memory for every case: the arena holds each case's tensors, weights, tables and parameter blocks.
const memory = createKernelMemory();
const arena = new Arena(memory);
const control = arena.alloc(64, 64);

function build(k: Case): Built {
  const lines = [
    ...k.inputs.map((s, i) => `pnnx.Input input${i} 0 1 in${i} #in${i}=(${s.join(',')})f32`),
    k.node,
    'pnnx.Output output 1 0 out',
  ];
  const g = parsePnnxParam(`7767517\n${lines.length} ${k.inputs.length + 1}\n${lines.join('\n')}\n`, `${k.name}.pnnx.param`);
  initWeights(g, defaultRegistry, 1);
  const ops = defaultRegistry.bindAll(g);
  inferShapes(g, ops);
  const node = g.nodes.find((n) => n.name === 'op')!;
  const { result, fast } = lowerNode(node, ops.get(node)!);
  if (!fast || 'alias' in result) throw new Error(`${k.name}: ${node.type} did not lower to a kernel`);
  const views = new Map<Value, TensorView>();
  for (const v of [...node.inputs, ...node.outputs]) {
    const shape = v.shape!;
    const view: TensorView = { offset: 0, shape, layout: layoutFor(shape), pixelStride: shape.length === 4 ? shape[1]! : 1 };
    const floats = viewFloats(view);
    const offset = arena.alloc(floats * 4, 64);
    const data = arena.f32(offset, floats);
    for (let i = 0; i < floats; i++) data[i] = 2 * Math.random() - 1;
    views.set(v, { ...view, offset });
  }
  const ctx: BuildContext = {
    arena, slotBases: [0], threads: 2,
    view: (v) => views.get(v)!,
    scratch: () => { throw new Error('no scratch in this benchmark'); },
  };
  const steps = result.build(ctx).map(({ step, tiles }) => {
    if (step.kind !== 'range') throw new Error(`${k.name}: a ${step.kind} step, not a range kernel`);
    return { fn: step.fn, params: step.params[0]!, units: step.units, perTile: step.perTile, tiles };
  });
  const bytes = 4 * ([...node.inputs, ...node.outputs].reduce((sum, v) => sum + numel(v.shape!), 0));
  return { k, steps, bytes, out: node.outputs[0]!.shape! };
}

const built = cases.map(build);
const names = [...new Set(built.flatMap((b) => b.steps.map((s) => s.fn)))];
const variants: SimdVariant[] = relaxedSimdSupported() ? ['plain', 'relaxed'] : ['plain'];
const gb = (x: number) => x.toFixed(1).padStart(6);

console.log(
  `flowinfer elementwise kernels: node ${process.version}, V8 ${process.versions.v8}, builds: ${variants.join(', ')}; ` +
    `load average ${loadavg()[0]!.toFixed(2)}; best / median of ${rounds} interleaved rounds; ` +
    `GB/s = (inputs read once + output written once) / time`,
);
for (const variant of variants) {
  const module = compileKernels(variant);
  const kernels = instantiateKernels(module, memory, variant).exports;
  const pool = await RangePair.start(memory, module, kernels, control, names);
  try {
    console.log(`\n${variant} build`);
    console.log(
      `${'model'.padEnd(12)} ${'kernel'.padEnd(26)} ${'output'.padEnd(16)} ${'MB'.padStart(6)} ${'tiles'.padStart(5)}` +
        ` ${'1T'.padStart(6)} ${'med'.padStart(6)} ${'us'.padStart(7)}  ${'2T'.padStart(6)} ${'med'.padStart(6)} ${'us'.padStart(7)} ${'2T/1T'.padStart(6)}`,
    );
    for (const b of built) {
      const one = { run: () => b.steps.forEach((s) => kernels[s.fn](s.params, 0, s.units)), flop: b.bytes };
      const two = { run: () => b.steps.forEach((s) => pool.run(s.fn, s.params, s.units, s.perTile)), flop: b.bytes };
      const [r1, r2] = measure([one, two], rounds) as [Rate, Rate];
      const us = (rate: number) => ((b.bytes / rate) * 1e-3).toFixed(1).padStart(7);
      console.log(
        `${b.k.model.padEnd(12)} ${b.k.name.padEnd(26)} ${`(${b.out.join(',')})`.padEnd(16)} ${(b.bytes / 1e6).toFixed(2).padStart(6)}` +
          ` ${String(b.steps.reduce((t, s) => t + s.tiles, 0)).padStart(5)} ${gb(r1.best)} ${gb(r1.median)} ${us(r1.best)}  ${gb(r2.best)} ${gb(r2.median)} ${us(r2.best)}` +
          ` ${`x${(r2.best / r1.best).toFixed(2)}`.padStart(6)}`,
      );
    }
  } finally {
    await pool.close();
  }
}
