// Concatenation without copies: producers that write through a pixel stride write straight into their
// slice of a channel concatenation's output; the rest are copied. Outputs equal the reference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../src/runtime/load.ts';
import { yolov5s } from '../../src/zoo/index.ts';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import type { Step } from '../../src/workers/protocol.ts';
import { assertClose } from '../helpers/compare.ts';
import { randomTensor, seededGraph, withBothEngines } from '../helpers/engines.ts';

const conv = (name: string, i: string, o: string, cin: number, cout: number) =>
  `nn.Conv2d ${name} 1 1 ${i} ${o} bias=True dilation=(1,1) groups=1 in_channels=${cin} kernel_size=(3,3) out_channels=${cout} padding=(1,1) stride=(1,1) @bias=(${cout})f32 @weight=(${cout},${cin},3,3)f32`;

// a and b come from convolutions and d from a binary kernel (written in place); c is also read by the
// pool (which reads it in place) but is a graph output too (so it stays a copy).
const TEXT = `7767517
10 7
pnnx.Input in 0 1 x #x=(2,5,9,7)f32
${conv('ca', 'x', 'a', 5, 6)}
${conv('cb', 'x', 'b', 5, 3)}
nn.ReLU rc 1 1 x c
pnnx.Expression e 2 1 x c d expr=mul(@0,@1)
torch.cat cat 4 1 a c b d y dim=1
nn.MaxPool2d pool 1 1 c p kernel_size=(2,2) stride=(2,2)
pnnx.Output out0 1 0 y
pnnx.Output out1 1 0 p
pnnx.Output out2 1 0 c
`;


function copies(model: object): number {
  const steps = (model as { engine: { built: { steps: Array<{ step: Step }> } } }).engine.built.steps;
  return steps.filter((s) => s.step.kind === 'range' && s.step.fn === 'f32_copy_rows').length;
}

test('convolution outputs land in their slices; other inputs are copied; results equal the reference', async () => {
  const x = randomTensor([2, 5, 9, 7], 3);
  await withBothEngines(() => seededGraph(TEXT, 'cat.pnnx.param', 5), { threads: 2, optLevel: 0 }, async (reference, fast) => {
    const want = await reference.run(x);
    const got = await fast.run(x);
    assertClose(got.out0!, want.out0!, 1e-5, 'cat');
    assertClose(got.out1!, want.out1!, 1e-6, 'pool');
    assert.equal(copies(fast), 1, 'one copy step, for the ReLU output only');
    assert.deepEqual((fast.engineStats as FastEngineStats).fallbackNodes, []);
  });
});

test('YOLOv5s: no copies, same outputs', async () => {
  const x = randomTensor([1, 3, 64, 64], 1);
  const reference = await loadModel(yolov5s({ size: 64 }), { engine: 'reference' });
  const fast = await loadModel(yolov5s({ size: 64 }), { engine: 'fast', threads: 2 });
  try {
    const want = await reference.run(x);
    const got = await fast.run(x);
    assertClose(got.pnnx_output_0!, want.pnnx_output_0!, 1e-4);
    // 13 concatenations of 2 or 4 inputs, all produced by convolutions, pools, upsamples and adds.
    assert.equal(copies(fast), 0, 'every input of every concatenation is written in place');
  } finally {
    await fast.dispose();
    await reference.dispose();
  }
});

// Inception's shape after CSE: `a` is one slice of the concatenation and also the input of a 3x3 and a
// depthwise convolution that write the other slices, so each reads and writes one buffer, in different channels.
const SHARED = `7767517
6 5
pnnx.Input in 0 1 x #x=(2,5,9,7)f32
${conv('ca', 'x', 'a', 5, 6)}
${conv('cb', 'a', 'b', 6, 7)}
nn.Conv2d cd 1 1 a d bias=True dilation=(1,1) groups=6 in_channels=6 kernel_size=(3,3) out_channels=6 padding=(1,1) stride=(1,1) @bias=(6)f32 @weight=(6,1,3,3)f32
torch.cat cat 3 1 a b d y dim=1
pnnx.Output out 1 0 y
`;

test('convolutions read one slice of a concatenation and write others in place', async () => {
  const x = randomTensor([2, 5, 9, 7], 4);
  await withBothEngines(() => seededGraph(SHARED, 'shared.pnnx.param', 9), { threads: 2, optLevel: 0 }, async (reference, fast) => {
    assertClose((await fast.run(x)).out!, (await reference.run(x)).out!, 1e-5, 'cat');
    assert.equal(copies(fast), 0, 'all three slices are written in place');
  });
});
