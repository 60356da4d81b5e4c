// model.stream on the fast engine: results equal model.run frame by frame; memory stays bounded over
// 10,000 frames; unsubscribing frees every slot; failures stay in their frame; diamonds and several
// inputs and outputs; the process exits on its own after dispose().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { firstValueFrom, from, lastValueFrom, toArray } from 'rxjs';
import { loadModel } from '../../src/runtime/load.ts';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { resnet18 } from '../../src/zoo/index.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { numel } from '../../src/tensor/shape.ts';
import type { SlotPool } from '../../src/tensor/arena.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { assertClose } from '../helpers/compare.ts';

function random(shape: number[], seed: number): Tensor {
  const data = new Float32Array(numel(shape));
  new SeededRandom(seed).fillUniform(data, -1, 1);
  return Tensor.f32(shape, data);
}

// A full garbage collection without --expose-gc on the command line (which worker threads refuse).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const slotsOf = (model: object) => (model as { engine: { slots: SlotPool } }).engine.slots;

test('stream results equal model.run, frame by frame, with 3 frames in flight', async () => {
  const model = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2 });
  try {
    const frames = Array.from({ length: 12 }, (_, i) => ({ input: random([1, 3, 32, 32], i), meta: `f${i}` }));
    const expected: Array<Record<string, Tensor>> = [];
    for (const f of frames) expected.push(await model.run(f.input));
    const results = await lastValueFrom(model.stream(from(frames), { maxInFlight: 3 }).pipe(toArray()));
    assert.deepEqual(results.map((r) => r.meta), frames.map((f) => f.meta));
    results.forEach((r, i) => assertClose(r.outputs!.pnnx_output_0!, expected[i]!.pnnx_output_0!, 1e-6, `frame ${i}`));
    assert.equal(slotsOf(model).count, 3);
  } finally {
    await model.dispose();
  }
});

const TINY = `7767517
4 3
pnnx.Input in 0 1 x #x=(1,4,6,6)f32
nn.Conv2d c 1 1 x y bias=True dilation=(1,1) groups=1 in_channels=4 kernel_size=(1,1) out_channels=8 padding=(0,0) stride=(1,1) @bias=(8)f32 @weight=(8,4,1,1)f32
nn.ReLU r 1 1 y z
pnnx.Output out 1 0 z
`;

function tinyGraph() {
  const g = parsePnnxParam(TINY, 'tiny.pnnx.param');
  initWeights(g, defaultRegistry, 2);
  return g;
}

test('10,000 frames from a fast pulled source: slots and heap stay bounded', async () => {
  const model = await loadModel(tinyGraph(), { engine: 'fast', threads: 2 });
  try {
    const input = random([1, 4, 6, 6], 1);
    const want = (await model.run(input)).out!;
    let produced = 0;
    async function* frames() {
      for (; produced < 10_000; produced++) yield { input: Tensor.f32([1, 4, 6, 6], input.f32.slice()), meta: produced };
    }
    // Heap after a full collection, sampled early and at the end: it must not grow with the frame count.
    const samples: number[] = [];
    let count = 0;
    await new Promise<void>((resolve, reject) => {
      model.stream(frames(), { maxInFlight: 4 }).subscribe({
        next: (r) => {
          if (r.meta !== count) reject(new Error(`frame ${r.meta} arrived as result ${count}`));
          if (count % 2000 === 0) assertClose(r.outputs!.out!, want, 1e-6);
          count++;
          if (count === 2000 || count === 10_000) {
            collectGarbage();
            samples.push(process.memoryUsage().heapUsed);
          }
        },
        error: reject,
        complete: resolve,
      });
    });
    assert.equal(count, 10_000);
    assert.equal(slotsOf(model).count, 4, 'no more arena slots than frames in flight');
    assert.equal(slotsOf(model).available, 4, 'every slot is free again');
    // 8,000 more frames of 144 input and 288 output floats would add 14 MB if any of them were kept.
    assert.ok(samples[1]! - samples[0]! < 3e6, `heap grew by ${((samples[1]! - samples[0]!) / 1e6).toFixed(1)} MB from frame 2,000 to 10,000`);
  } finally {
    await model.dispose();
  }
});

test('unsubscribing mid-stream frees every slot', async () => {
  const model = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2 });
  try {
    async function* frames() {
      for (let i = 0; ; i++) yield random([1, 3, 32, 32], i);
    }
    const first = await firstValueFrom(model.stream(frames(), { maxInFlight: 4 }));
    assert.equal(first.index, 0);
    for (let i = 0; i < 100 && slotsOf(model).available < 4; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(slotsOf(model).available, 4);
    // The engine still works after the cancellation.
    assert.deepEqual([...(await model.run(random([1, 3, 32, 32], 1))).pnnx_output_0!.shape], [1, 1000]);
  } finally {
    await model.dispose();
  }
});

const DIAMOND = `7767517
8 6
pnnx.Input in0 0 1 x #x=(1,4,6,6)f32
pnnx.Input in1 0 1 s #s=(1,4,1,1)f32
nn.ReLU left 1 1 x a
nn.Sigmoid right 1 1 x b
pnnx.Expression join 3 1 a b s c expr=add(mul(@0,@2),@1)
nn.MaxPool2d pool 1 1 c d kernel_size=(2,2) stride=(2,2)
pnnx.Output out0 1 0 c
pnnx.Output out1 1 0 d
`;

test('a diamond graph with two inputs and two outputs streams like it runs', async () => {
  const model = await loadModel(parsePnnxParam(DIAMOND, 'diamond.pnnx.param'), { engine: 'fast', threads: 2 });
  const reference = await loadModel(parsePnnxParam(DIAMOND, 'diamond.pnnx.param'), { engine: 'reference' });
  try {
    const frames = Array.from({ length: 6 }, (_, i) => ({ input: { in0: random([1, 4, 6, 6], i), in1: random([1, 4, 1, 1], 100 + i) }, meta: i }));
    const results = await lastValueFrom(model.stream(from(frames), { maxInFlight: 3 }).pipe(toArray()));
    for (const [i, r] of results.entries()) {
      const want = await reference.run(frames[i]!.input);
      assertClose(r.outputs!.out0!, want.out0!, 1e-6, 'out0');
      assertClose(r.outputs!.out1!, want.out1!, 1e-6, 'out1');
    }
  } finally {
    await model.dispose();
    await reference.dispose();
  }
});

test('a frame that fails in a worker does not disturb the others', async () => {
  const text = `7767517\n4 3\npnnx.Input in0 0 1 x #x=(1,3)f32\npnnx.Input in1 0 1 s #s=(1)f32\npnnx.Expression e 2 1 x s y expr=div(@0,floor_divide(2,int(@1)))\npnnx.Output out 1 0 y\n`;
  const model = await loadModel(parsePnnxParam(text, 'div.pnnx.param'), { engine: 'fast', threads: 2 });
  try {
    const frames = [1, 1, 0, 2, 1].map((s, i) => ({ input: [Tensor.f32([1, 3], [2 * i, 4 * i, 6 * i]), Tensor.f32([1], [s])], meta: i }));
    const results = await lastValueFrom(model.stream(from(frames), { maxInFlight: 3, onError: 'emit' }).pipe(toArray()));
    assert.match(results[2]!.error!.message, /frame 2 \(2\): pnnx\.Expression "e" failed in worker \d/);
    for (const i of [0, 1, 3, 4]) {
      const q = Math.floor(2 / [1, 1, 0, 2, 1][i]!);
      assert.deepEqual([...results[i]!.outputs!.out!.f32], [2 * i / q, 4 * i / q, 6 * i / q]);
    }
    await assert.rejects(lastValueFrom(model.stream(from(frames), { maxInFlight: 2 })), /frame 2 \(2\): pnnx\.Expression "e" failed/);
  } finally {
    await model.dispose();
  }
});

test('after stream and dispose() the process exits on its own', () => {
  const script = `
    import { lastValueFrom, range, map, toArray } from 'rxjs';
    import { loadModel } from ${JSON.stringify(new URL('../../src/runtime/load.ts', import.meta.url).href)};
    import { resnet18 } from ${JSON.stringify(new URL('../../src/zoo/index.ts', import.meta.url).href)};
    import { Tensor } from ${JSON.stringify(new URL('../../src/tensor/tensor.ts', import.meta.url).href)};
    const model = await loadModel(resnet18({ size: 32 }), { engine: 'fast', threads: 2 });
    const rs = await lastValueFrom(model.stream(range(0, 5).pipe(map(() => Tensor.zeros([1, 3, 32, 32]))), { maxInFlight: 2 }).pipe(toArray()));
    await model.dispose();
    console.log(rs.length);`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.signal, null, 'the process had to be killed: something kept it alive');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), '5');
});

test('metrics$ reports per-frame latency, per-node time, in-flight and dropped counts', async () => {
  const model = await loadModel(tinyGraph(), { engine: 'fast', threads: 2 });
  try {
    const seen: import('../../src/stream/types.ts').FrameMetrics[] = [];
    const sub = model.metrics$.subscribe((m) => seen.push(m));
    await model.run(random([1, 4, 6, 6], 1));
    await lastValueFrom(model.stream(from(Array.from({ length: 5 }, (_, i) => random([1, 4, 6, 6], i))), { maxInFlight: 2 }).pipe(toArray()));
    sub.unsubscribe();
    assert.deepEqual(seen.map((m) => `${m.source}:${m.index}`).sort(), ['run:0', 'stream:0', 'stream:1', 'stream:2', 'stream:3', 'stream:4']);
    for (const m of seen) {
      assert.ok(m.latencyMs > 0 && m.latencyMs < 10_000);
      assert.ok(m.inFlight >= 0 && m.inFlight <= 2 && m.dropped === 0);
      // The conv (with its ReLU fused) is the one node with work: its worker time is there and positive.
      assert.deepEqual(m.nodeMs.map((n) => `${n.type} ${n.name}`), ['nn.Conv2d c']);
      assert.ok(m.nodeMs[0]!.ms > 0);
    }
  } finally {
    await model.dispose();
  }
});

test('the reference engine streams several frames in flight without rebuilding per frame', async () => {
  const model = await loadModel(tinyGraph(), { engine: 'reference' });
  try {
    let builds = 0;
    const make = (model as unknown as { makeEngine: (...a: unknown[]) => Promise<unknown> }).makeEngine;
    (model as unknown as { makeEngine: unknown }).makeEngine = (...a: unknown[]) => { builds++; return make(...a); };
    const frames = Array.from({ length: 6 }, (_, i) => random([1, 4, 6, 6], i));
    const results = await lastValueFrom(model.stream(from(frames), { maxInFlight: 3 }).pipe(toArray()));
    assert.equal(results.length, 6);
    assert.equal(builds, 1);
  } finally {
    await model.dispose();
  }
});
