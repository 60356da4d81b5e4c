// pnnx.Expression nodes of arithmetic and min/max on the fast path run as generated SIMD wasm: equal to
// the reference in a graph (NHWC operands, a per-channel operand broadcast over pixels, odd channel
// counts), while an expression with exp stays on the JavaScript loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import type { Step } from '../../src/workers/protocol.ts';
import { assertClose } from '../helpers/compare.ts';
import { randomTensor, seededGraph, withBothEngines } from '../helpers/engines.ts';

const GRAPH = `7767517
8 7
pnnx.Input in 0 1 x #x=(2,5,9,7)f32
nn.Conv2d c1 1 1 x a bias=True dilation=(1,1) groups=1 in_channels=5 kernel_size=(3,3) out_channels=5 padding=(1,1) stride=(1,1) @bias=(5)f32 @weight=(5,5,3,3)f32
nn.AdaptiveAvgPool2d gap 1 1 a g output_size=(1,1)
pnnx.Expression hsr 3 1 x a g b expr=add(add(@1,mul(@1,min(max(add(mul(@2,0.2),0.5),0.0),1.0))),@0)
pnnx.Expression clip 1 1 b c expr=div(max(min(@0,6.0),neg(1)),sqrt(add(abs(@0),1e-05)))
pnnx.Expression soft 2 1 c g d expr=mul(exp(neg(@0)),@1)
pnnx.Expression relu2 2 1 d g y expr=max(add(mul(@0,@0),@1),0)
pnnx.Output out 1 0 y
`;

test('arithmetic expressions run on the wasm step and equal the reference', async () => {
  const x = randomTensor([2, 5, 9, 7], 5);
  await withBothEngines(() => seededGraph(GRAPH, 'wasm-expr.pnnx.param', 6), { threads: 2, optLevel: 0 }, async (reference, fast) => {
    assertClose((await fast.run(x)).out!, (await reference.run(x)).out!, 1e-6);
    // a second frame reuses the compiled modules
    const x2 = randomTensor([2, 5, 9, 7], 7);
    assertClose((await fast.run(x2)).out!, (await reference.run(x2)).out!, 1e-6);
    const steps = (fast as unknown as { engine: { built: { steps: Array<{ step: Step }> } } }).engine.built.steps.map((s) => s.step);
    const kind = (name: string) => steps.find((s) => s.label.includes(`"${name}"`))?.kind;
    assert.equal(kind('hsr'), 'expr-wasm');
    assert.equal(kind('clip'), 'expr-wasm');
    assert.equal(kind('relu2'), 'expr-wasm');
    assert.equal(kind('soft'), 'expr', 'exp keeps the JavaScript loop');
    assert.deepEqual((fast.engineStats as FastEngineStats).fallbackNodes, []);
  });
});
