// The fast engine against the reference engine: whole models, every KuiperInfer case, broadcasting
// expressions, several inputs and outputs; errors name the node; workers end with dispose().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { loadModel, type LoadOptions } from '../../src/runtime/load.ts';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { mobilenetV2, resnet18, yolov5s } from '../../src/zoo/index.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { numel } from '../../src/tensor/shape.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { assertClose } from '../helpers/compare.ts';
import { SKIP_SHARED, kuiper } from '../helpers/shared.ts';
import { compareSelection, kuiperCases, makeInput, readCsv } from '../helpers/kuiper.ts';

function random(shape: number[], seed: number, lo = -1, hi = 1): Tensor {
  const data = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(data, lo, hi);
  return Tensor.f32(shape, data);
}

async function both(make: () => Graph | string, inputs: Tensor[], options: LoadOptions = {}) {
  const reference = await loadModel(make(), { ...options, engine: 'reference' });
  const fast = await loadModel(make(), { ...options, engine: 'fast', threads: 2 });
  try {
    return { want: await reference.run(inputs), got: await fast.run(inputs), fast };
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
}

for (const [name, make, shape] of [
  ['ResNet-18', () => resnet18({ batch: 2, size: 64 }), [2, 3, 64, 64]],
  ['MobileNetV2', () => mobilenetV2({ size: 64 }), [1, 3, 64, 64]],
  ['YOLOv5s', () => yolov5s({ size: 64 }), [1, 3, 64, 64]],
] as const) {
  test(`${name}: fast engine equals the reference within 1e-4`, async () => {
    const { want, got } = await both(make, [random([...shape], 7, 0, 1)]);
    for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-4, `${name} ${k}`);
  });
}

test('every KuiperInfer reference case passes on the fast engine', { skip: SKIP_SHARED }, async () => {
  for (const c of kuiperCases()) {
    const model = await loadModel(kuiper(c.param), { bin: kuiper(c.bin), engine: 'fast', threads: 2 });
    try {
      const out = Object.values(await model.run(makeInput(c)))[0]!;
      for (const e of c.expected) {
        // The fast kernels accumulate in float32 (KuiperInfer's tolerance fits its own summation order):
        // where the manifest suggests a looser bound for that reason (add/resnet_add3), it applies.
        const problems = compareSelection(out, e, readCsv(e.csv), c.tolerance.suggested_abs ?? c.tolerance.abs);
        assert.deepEqual(problems, [], `${c.id} vs ${e.csv}:\n${problems.join('\n')}`);
      }
    } finally {
      await model.dispose();
    }
  }
});

test('dispatch: rxjs (every step an RxJS node on the main thread) gives the same results, run and streamed', async () => {
  const x = random([1, 3, 32, 32], 3, 0, 1);
  const { want, got, fast } = await both(() => mobilenetV2({ size: 32 }), [x], { dispatch: 'rxjs' });
  void fast;
  assertClose(got.pnnx_output_0!, want.pnnx_output_0!, 1e-4, 'rxjs dispatch');
  const model = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2, dispatch: 'rxjs' });
  const chained = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2 });
  try {
    const { lastValueFrom, from, toArray } = await import('rxjs');
    const frames = Array.from({ length: 6 }, (_, i) => random([1, 3, 32, 32], 10 + i, 0, 1));
    const a = await lastValueFrom(model.stream(from(frames), { maxInFlight: 3 }).pipe(toArray()));
    const b = await lastValueFrom(chained.stream(from(frames), { maxInFlight: 3 }).pipe(toArray()));
    a.forEach((r, i) => assertClose(r.outputs!.pnnx_output_0!, b[i]!.outputs!.pnnx_output_0!, 1e-6, `frame ${i}`));
  } finally {
    await model.dispose();
    await chained.dispose();
  }
});

const BROADCAST = `7767517
7 5
pnnx.Input in0 0 1 x #x=(2,8,5,6)f32
pnnx.Input in1 0 1 s #s=(2,8,1,1)f32
pnnx.Expression se 2 1 s x y expr=mul(@0,@1)
pnnx.Expression mix 2 1 y x z expr=sub(div(add(@0,2),4),@1)
nn.AdaptiveAvgPool2d pool 1 1 z p output_size=(1,1)
pnnx.Output out0 1 0 z
pnnx.Output out1 1 0 p
`;

test('several inputs and outputs; expressions broadcast (N,C,1,1) against (N,C,H,W) in NHWC', async () => {
  const { want, got } = await both(() => parsePnnxParam(BROADCAST, 'broadcast.pnnx.param'), [random([2, 8, 5, 6], 1), random([2, 8, 1, 1], 2)]);
  assert.deepEqual(Object.keys(got), ['out0', 'out1']);
  assertClose(got.out0!, want.out0!, 1e-6, 'out0');
  assertClose(got.out1!, want.out1!, 1e-6, 'out1');
});

test('bad params fail at load naming the node', async () => {
  const text = `7767517\n3 2\npnnx.Input in 0 1 x #x=(1,4)f32\nnn.Softmax sm 1 1 x y dim=5\npnnx.Output out 1 0 y\n`;
  await assert.rejects(loadModel(parsePnnxParam(text, 'bad.pnnx.param'), { engine: 'fast' }), /nn\.Softmax node "sm" \(line 4 of bad\.pnnx\.param\): dim=5 is out of range/);
});

test('a node failing in a worker rejects that run naming the node; the next run works', async () => {
  // floor_divide(2, int(@1)) is an integer division: by zero it throws inside the worker's kernel.
  const text = `7767517\n4 3\npnnx.Input in0 0 1 x #x=(2,3)f32\npnnx.Input in1 0 1 s #s=(1)f32\npnnx.Expression e 2 1 x s y expr=div(@0,floor_divide(2,int(@1)))\npnnx.Output out 1 0 y\n`;
  const model = await loadModel(parsePnnxParam(text, 'div.pnnx.param'), { engine: 'fast', threads: 2 });
  try {
    await assert.rejects(model.run([random([2, 3], 1), Tensor.f32([1], [0])]), /pnnx\.Expression "e" failed in worker \d: .*divi/i);
    const ok = await model.run([Tensor.f32([2, 3], [2, 4, 6, 8, 10, 12]), Tensor.f32([1], [1])]);
    assert.deepEqual([...ok.out!.f32], [1, 2, 3, 4, 5, 6]);
  } finally {
    await model.dispose();
  }
});

test('dispose() ends the workers: a process that runs a model exits on its own', () => {
  const script = `
    import { loadModel } from ${JSON.stringify(new URL('../../src/runtime/load.ts', import.meta.url).href)};
    import { resnet18 } from ${JSON.stringify(new URL('../../src/zoo/index.ts', import.meta.url).href)};
    import { Tensor } from ${JSON.stringify(new URL('../../src/tensor/tensor.ts', import.meta.url).href)};
    const model = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2 });
    const out = await model.run(Tensor.zeros([1, 3, 32, 32]));
    await model.dispose();
    console.log(Object.values(out)[0].shape.join('x'));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, 'the process had to be killed: something kept it alive');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), '1x1000');
});
