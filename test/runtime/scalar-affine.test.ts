// Constant affine expressions of one operand (PP-LCNet's learnable affine blocks) on the channel-affine
// kernel: recognised exactly, refused otherwise, and equal to the reference in a graph, also when the
// result is a channel slice of a concatenation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseExpression } from '../../src/expr/index.ts';
import { affineOf } from '../../src/ops/fast/scalar-affine.ts';
import type { FastEngineStats } from '../../src/runtime/fast/engine.ts';
import type { Step } from '../../src/workers/protocol.ts';
import { assertClose } from '../helpers/compare.ts';
import { randomTensor, seededGraph, withBothEngines } from '../helpers/engines.ts';

const affine = (text: string) => affineOf(parseExpression(text, { inputCount: 2 }).root);

test('affineOf reads scale and shift from add, sub, neg, and mul or div by numbers', () => {
  assert.deepEqual(affine('add(mul(0.5,@0),-2.0)'), { scale: 0.5, shift: -2 });
  assert.deepEqual(affine('div(sub(@0,3),4)'), { scale: 0.25, shift: -0.75 });
  assert.deepEqual(affine('neg(add(@0,mul(@0,2)))'), { scale: -3, shift: -0 });
  assert.deepEqual(affine('mul(add(@0,1),mul(2,3))'), { scale: 6, shift: 6 });
  for (const text of ['mul(@0,@0)', 'add(@0,@1)', 'exp(@0)', 'div(2,@0)', 'div(@0,0)', 'sub(@0,@0)', 'add(1,2)', 'max(@0,0)', 'pow(@0,1)']) {
    assert.equal(affine(text), undefined, text);
  }
});

test('affineOf agrees with evaluating the expression', () => {
  // Random affine trees: the recognised (scale, shift) gives the tree's value at random points.
  const leaf = fc.oneof(fc.constant('@0'), fc.double({ min: -4, max: 4, noNaN: true }).map((v) => v.toFixed(3)));
  const tree = fc.letrec<{ node: [string, boolean] }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf.map((t): [string, boolean] => [t, t === '@0']),
      fc.tuple(fc.constantFrom('add', 'sub'), tie('node'), tie('node')).map(([f, a, b]): [string, boolean] => [`${f}(${a[0]},${b[0]})`, a[1] || b[1]]),
      fc.tuple(tie('node'), fc.double({ min: 0.25, max: 3, noNaN: true })).map(([a, k]): [string, boolean] => [`mul(${a[0]},${k.toFixed(2)})`, a[1]]),
      tie('node').map((a): [string, boolean] => [`neg(${a[0]})`, a[1]]),
    ),
  })).node;
  fc.assert(fc.property(tree, fc.double({ min: -10, max: 10, noNaN: true }), ([text], x) => {
    const found = affine(text);
    const evaluate = (e: string): number => Function('x', `const add=(a,b)=>a+b,sub=(a,b)=>a-b,mul=(a,b)=>a*b,neg=(a)=>-a;return ${e.replaceAll('@0', 'x')};`)(x) as number;
    if (!found) return true; // scale 0 (the operand cancelled out) is left to constant folding
    return Math.abs(found.scale * x + found.shift - evaluate(text)) <= 1e-9 * (1 + Math.abs(evaluate(text)));
  }), { numRuns: 300 });
});

const GRAPH = `7767517
6 5
pnnx.Input in 0 1 x #x=(2,3,9,7)f32
nn.Conv2d c1 1 1 x a bias=True dilation=(1,1) groups=1 in_channels=3 kernel_size=(3,3) out_channels=5 padding=(1,1) stride=(1,1) @bias=(5)f32 @weight=(5,3,3,3)f32
nn.Hardswish act 1 1 a b
pnnx.Expression lab 1 1 b c expr=add(mul(0.4763,@0),-0.0076)
torch.cat cat 2 1 c x y dim=1
pnnx.Output out 1 0 y
`;

test('a learnable affine block runs on the affine kernel, straight into a concatenation slice', async () => {
  const x = randomTensor([2, 3, 9, 7], 2);
  await withBothEngines(() => seededGraph(GRAPH, 'lab.pnnx.param', 4), { threads: 2 }, async (reference, fast) => {
    assertClose((await fast.run(x)).out!, (await reference.run(x)).out!, 1e-6);
    const steps = (fast as unknown as { engine: { built: { steps: Array<{ step: Step }> } } }).engine.built.steps.map((s) => s.step);
    const lab = steps.find((s) => s.label.includes('lab'));
    assert.ok(lab && lab.kind === 'range' && lab.fn === 'f32_affine_rows', `the affine block's step: ${JSON.stringify(lab?.kind)}`);
    // Only the graph input x is copied into the concatenation; the block writes its slice in place.
    assert.equal(steps.filter((s) => s.kind === 'range' && s.fn === 'f32_copy_rows').length, 1);
    assert.deepEqual((fast.engineStats as FastEngineStats).fallbackNodes, []);
  });
});
