// Each pass on small hand-built graphs: what it must change, and where it must not fire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { runPasses } from '../../src/graph/passes/run.ts';
import type { Pass } from '../../src/graph/passes/pass.ts';
import { removeIdentities } from '../../src/graph/passes/identity.ts';
import { eliminateDeadCode } from '../../src/graph/passes/dce.ts';
import { eliminateCommonSubexpressions } from '../../src/graph/passes/cse.ts';
import { foldConstants } from '../../src/graph/passes/constant-fold.ts';
import { foldBatchNorms } from '../../src/graph/passes/batchnorm-fold.ts';
import { fuseActivations } from '../../src/graph/passes/activation-fusion.ts';
import { fuseResiduals } from '../../src/graph/passes/residual-fusion.ts';
import { fuseElementwise } from '../../src/graph/passes/elementwise-fusion.ts';
import { collapseReshapes } from '../../src/graph/passes/reshape-collapse.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { numel } from '../../src/tensor/shape.ts';
import { assertClose } from '../helpers/compare.ts';

const CONV = (name: string, i: string, o: string, extra = '') =>
  `nn.Conv2d ${name} 1 1 ${i} ${o} bias=True dilation=(1,1) groups=1 in_channels=4 kernel_size=(3,3) out_channels=4 padding=(1,1) stride=(1,1) @bias=(4)f32 @weight=(4,4,3,3)f32${extra}`;

function graphOf(body: string[], inputShape = '(2,4,5,5)'): Graph {
  const operands = new Set<string>();
  for (const line of body) {
    const t = line.split(/\s+/);
    const n = Number(t[2]) + Number(t[3]);
    for (const o of t.slice(4, 4 + n)) operands.add(o);
  }
  operands.add('x');
  const lines = [`pnnx.Input in 0 1 x #x=${inputShape}f32`, ...body];
  const g = parsePnnxParam(`7767517\n${lines.length} ${operands.size}\n${lines.join('\n')}\n`, 'pass.pnnx.param');
  initWeights(g, defaultRegistry, 3);
  inferShapes(g, defaultRegistry.bindAll(g));
  return g;
}

const types = (g: Graph) => g.nodes.map((n) => n.type);
const ctx = (level: 0 | 1 | 2 | 3 = 3) => ({ level, disabled: new Set<string>(), trace: false, registry: defaultRegistry });

/** Runs the pass and checks that outputs are unchanged (reference engine, 1e-5). */
async function runAndCompare(make: () => Graph, pass: Pass, inputShape = [2, 4, 5, 5]) {
  const x = new Float32Array(numel(inputShape));
  new SeededRandom(9).fillUniform(x, -1, 1);
  const input = Tensor.f32(inputShape, x);
  const before = await loadModel(make(), { engine: 'reference', optLevel: 0 });
  const want = await before.run(input);
  const g = make();
  const reports = runPasses(g, [pass], ctx());
  const after = await loadModel(g, { engine: 'reference', optLevel: 0 });
  const got = await after.run(input);
  for (const k of Object.keys(want)) assertClose(got[k]!, want[k]!, 1e-5, k);
  return { graph: g, report: reports[0]! };
}

test('remove-identities drops identity and dropout, keeping outputs', async () => {
  const { graph, report } = await runAndCompare(() => graphOf(['nn.Identity id 1 1 x a', 'nn.Dropout dr 1 1 a b', 'nn.ReLU r 1 1 b c', 'pnnx.Output out 1 0 c']), removeIdentities);
  assert.deepEqual(types(graph), ['pnnx.Input', 'nn.ReLU', 'pnnx.Output']);
  assert.equal(report.changes.length, 2);
});

test('dead-code removes what no output needs, not what an output needs', async () => {
  const { graph } = await runAndCompare(() => graphOf([CONV('c1', 'x', 'a'), CONV('dead', 'x', 'b'), 'nn.ReLU r 1 1 b d', 'pnnx.Output out 1 0 a']), eliminateDeadCode);
  assert.deepEqual(graph.nodes.map((n) => n.name), ['in', 'c1', 'out']);
  const kept = graphOf([CONV('c1', 'x', 'a'), 'nn.ReLU r 1 1 a b', 'pnnx.Output out 1 0 a', 'pnnx.Output out2 1 0 b']);
  assert.deepEqual(runPasses(kept, [eliminateDeadCode], ctx())[0]!.changes, []);
});

test('common-subexpressions merges equal nodes, never ones with other params or weights', async () => {
  const { graph } = await runAndCompare(() => graphOf([
    'nn.ReLU r1 1 1 x a', 'nn.ReLU r2 1 1 x b', 'pnnx.Expression e 2 1 a b c expr=add(@0,@1)', 'pnnx.Output out 1 0 c']), eliminateCommonSubexpressions);
  assert.deepEqual(graph.nodes.map((n) => n.name), ['in', 'r1', 'e', 'out']);
  assert.deepEqual(graph.nodes[2]!.inputs.map((v) => v.name), ['a', 'a']);
  const differentParams = graphOf(['nn.LeakyReLU l1 1 1 x a negative_slope=0.1', 'nn.LeakyReLU l2 1 1 x b negative_slope=0.2', 'pnnx.Expression e 2 1 a b c expr=add(@0,@1)', 'pnnx.Output out 1 0 c']);
  assert.deepEqual(runPasses(differentParams, [eliminateCommonSubexpressions], ctx())[0]!.changes, []);
  // Two convolutions with equal params but their own (different) weights stay two.
  const differentWeights = graphOf([CONV('c1', 'x', 'a'), CONV('c2', 'x', 'b'), 'pnnx.Expression e 2 1 a b c expr=add(@0,@1)', 'pnnx.Output out 1 0 c']);
  assert.deepEqual(runPasses(differentWeights, [eliminateCommonSubexpressions], ctx())[0]!.changes, []);
  // Nor two whose weights have no data yet (a graph inspected without its .bin): their values are unknown.
  const unknownWeights = graphOf([CONV('c1', 'x', 'a'), CONV('c2', 'x', 'b'), 'pnnx.Expression e 2 1 a b c expr=add(@0,@1)', 'pnnx.Output out 1 0 c']);
  for (const node of unknownWeights.nodes) for (const [k, w] of node.weights) node.weights.set(k, { ...w, data: undefined });
  assert.deepEqual(runPasses(unknownWeights, [eliminateCommonSubexpressions], ctx())[0]!.changes, []);
});

test('constant-folding computes nodes fed only by constants', async () => {
  const make = () => graphOf([
    'pnnx.Attribute k 0 1 k @data=(1,4,1,1)f32', 'nn.ReLU rk 1 1 k kr', 'pnnx.Expression e 2 1 x kr y expr=mul(@0,@1)', 'pnnx.Output out 1 0 y']);
  const { graph, report } = await runAndCompare(make, foldConstants);
  assert.equal(report.changes.length, 1);
  assert.ok(!types(graph).includes('nn.ReLU'));
  const folded = graph.nodes.find((n) => n.name === 'rk.folded')!;
  const original = make().nodes.find((n) => n.name === 'k')!.weights.get('data')!.data as Float32Array;
  assert.deepEqual([...(folded.weights.get('data')!.data as Float32Array)], [...original].map((v) => Math.max(v, 0)));
});

test('fold-batchnorm folds into the convolution; not when the convolution has another consumer', async () => {
  const bn = (name: string, i: string, o: string) => `nn.BatchNorm2d ${name} 1 1 ${i} ${o} affine=True eps=0.001 num_features=4 @bias=(4)f32 @running_mean=(4)f32 @running_var=(4)f32 @weight=(4)f32`;
  const { graph } = await runAndCompare(() => graphOf([CONV('c', 'x', 'a'), bn('bn', 'a', 'b'), 'pnnx.Output out 1 0 b']), foldBatchNorms);
  assert.deepEqual(types(graph), ['pnnx.Input', 'nn.Conv2d', 'pnnx.Output']);
  const shared = graphOf([CONV('c', 'x', 'a'), bn('bn', 'a', 'b'), 'nn.ReLU r 1 1 a d', 'pnnx.Expression e 2 1 b d f expr=add(@0,@1)', 'pnnx.Output out 1 0 f']);
  assert.deepEqual(runPasses(shared, [foldBatchNorms], ctx())[0]!.changes, []);
});

test('a grouped ConvTranspose2d takes the batch norm (scaled on weight dim 1, per group) and the activation after it; not a second batch norm or a shared output', async () => {
  // groups=2: Cin 4 = 2 x 2, Cout 6 = 2 x 3; the weight is (Cin, Cout / groups, kh, kw) = (4, 3, 3, 3).
  const deconv = (name: string, i: string, o: string) =>
    `nn.ConvTranspose2d ${name} 1 1 ${i} ${o} bias=True dilation=(1,1) groups=2 in_channels=4 kernel_size=(3,3) out_channels=6 output_padding=(1,1) padding=(1,1) stride=(2,2) @bias=(6)f32 @weight=(4,3,3,3)f32`;
  const bn = (name: string, i: string, o: string) => `nn.BatchNorm2d ${name} 1 1 ${i} ${o} affine=True eps=0.001 num_features=6 @bias=(6)f32 @running_mean=(6)f32 @running_var=(6)f32 @weight=(6)f32`;
  const body = [deconv('ct', 'x', 'a'), bn('bn', 'a', 'b'), 'nn.Sigmoid s 1 1 b d', 'pnnx.Output out 1 0 d'];
  const folded = await runAndCompare(() => graphOf(body), foldBatchNorms);
  assert.deepEqual(types(folded.graph), ['pnnx.Input', 'nn.ConvTranspose2d', 'nn.Sigmoid', 'pnnx.Output']);
  const fused = await runAndCompare(() => {
    const g = graphOf(body);
    runPasses(g, [foldBatchNorms], ctx());
    return g;
  }, fuseActivations);
  assert.deepEqual(types(fused.graph), ['pnnx.Input', 'nn.ConvTranspose2d', 'pnnx.Output']);
  assert.deepEqual(fused.graph.nodes[1]!.params.get('flowinfer.activation'), { kind: 'string', value: 'nn.Sigmoid' });
  // Once an activation is fused in, a batch norm after it cannot fold (it would have to go before the activation).
  const afterActivation = graphOf([deconv('ct', 'x', 'a'), 'nn.ReLU r 1 1 a b', bn('bn', 'b', 'd'), 'pnnx.Output out 1 0 d']);
  runPasses(afterActivation, [fuseActivations], ctx());
  assert.deepEqual(runPasses(afterActivation, [foldBatchNorms], ctx())[0]!.changes, []);
  const shared = graphOf([deconv('ct', 'x', 'a'), bn('bn', 'a', 'b'), 'pnnx.Output out 1 0 b', 'pnnx.Output out2 1 0 a']);
  assert.deepEqual(runPasses(shared, [foldBatchNorms], ctx())[0]!.changes, []);
});

test('fuse-activations takes a sole-consumer activation; not one whose input is also used elsewhere or is an output', async () => {
  const { graph } = await runAndCompare(() => graphOf([CONV('c', 'x', 'a'), 'nn.ReLU6 r 1 1 a b', 'pnnx.Output out 1 0 b']), fuseActivations);
  assert.deepEqual(types(graph), ['pnnx.Input', 'nn.Conv2d', 'pnnx.Output']);
  assert.deepEqual(graph.nodes[1]!.params.get('flowinfer.activation'), { kind: 'string', value: 'nn.ReLU6' });
  const twoUses = graphOf([CONV('c', 'x', 'a'), 'nn.ReLU r 1 1 a b', 'pnnx.Expression e 2 1 a b d expr=add(@0,@1)', 'pnnx.Output out 1 0 d']);
  assert.deepEqual(runPasses(twoUses, [fuseActivations], ctx())[0]!.changes, []);
  const output = graphOf([CONV('c', 'x', 'a'), 'nn.ReLU r 1 1 a b', 'pnnx.Output out 1 0 b', 'pnnx.Output out2 1 0 a']);
  assert.deepEqual(runPasses(output, [fuseActivations], ctx())[0]!.changes, []);
  const gelu = graphOf([CONV('c', 'x', 'a'), 'nn.GELU g 1 1 a b', 'pnnx.Output out 1 0 b']);
  assert.deepEqual(runPasses(gelu, [fuseActivations], ctx())[0]!.changes, [], 'GELU has no kernel epilogue');
});

test('fuse-residuals folds add(conv, x) into the convolution; not a broadcasting add', async () => {
  const { graph } = await runAndCompare(() => graphOf([CONV('c', 'x', 'a'), 'pnnx.Expression e 2 1 a x b expr=add(@0,@1)', 'nn.ReLU r 1 1 b d', 'pnnx.Output out 1 0 d']), fuseResiduals);
  assert.deepEqual(types(graph), ['pnnx.Input', 'nn.Conv2d', 'nn.ReLU', 'pnnx.Output']);
  assert.deepEqual(graph.nodes[1]!.inputs.map((v) => v.name), ['x', 'x']);
  const broadcast = graphOf(['pnnx.Attribute k 0 1 k @data=(1,4,1,1)f32', CONV('c', 'x', 'a'), 'pnnx.Expression e 2 1 a k b expr=add(@0,@1)', 'pnnx.Output out 1 0 b']);
  assert.deepEqual(runPasses(broadcast, [fuseResiduals], ctx())[0]!.changes, []);
  const mul = graphOf([CONV('c', 'x', 'a'), 'pnnx.Expression e 2 1 a x b expr=mul(@0,@1)', 'pnnx.Output out 1 0 b']);
  assert.deepEqual(runPasses(mul, [fuseResiduals], ctx())[0]!.changes, []);
});

test('fuse-elementwise merges chains and trees of expressions into one', async () => {
  const { graph } = await runAndCompare(() => graphOf([
    'pnnx.Expression e1 1 1 x a expr=mul(@0,2)',
    'nn.ReLU r 1 1 x b',
    'pnnx.Expression e2 2 1 a b c expr=add(@0,@1)',
    'pnnx.Expression e3 2 1 c x d expr=sub(@0,@1)',
    'pnnx.Output out 1 0 d']), fuseElementwise);
  const exprs = graph.nodes.filter((n) => n.type === 'pnnx.Expression');
  assert.equal(exprs.length, 1);
  assert.deepEqual(exprs[0]!.params.get('expr'), { kind: 'string', value: 'sub(add(mul(@0,2),@1),@0)' });
  assert.deepEqual(exprs[0]!.inputs.map((v) => v.name), ['x', 'b']);
  const shared = graphOf(['pnnx.Expression e1 1 1 x a expr=mul(@0,2)', 'pnnx.Expression e2 1 1 a b expr=add(@0,1)', 'pnnx.Output out 1 0 b', 'pnnx.Output out2 1 0 a']);
  assert.deepEqual(runPasses(shared, [fuseElementwise], ctx())[0]!.changes, [], 'an expression whose result is an output stays');
});

test('collapse-reshapes reshapes the source directly', async () => {
  const { graph } = await runAndCompare(() => graphOf(['torch.flatten f 1 1 x a end_dim=-1 start_dim=1', 'Tensor.reshape r 1 1 a b shape=(2,5,20)', 'pnnx.Output out 1 0 b']), collapseReshapes);
  assert.deepEqual(types(graph), ['pnnx.Input', 'Tensor.reshape', 'pnnx.Output']);
});

test('levels and disabling: passes above the level or disabled do not run; graphs stay valid', () => {
  const make = () => graphOf([CONV('c', 'x', 'a'), 'nn.ReLU r 1 1 a b', 'nn.Identity i 1 1 b d', 'pnnx.Output out 1 0 d']);
  const passes = [removeIdentities, fuseActivations];
  assert.deepEqual(runPasses(make(), passes, ctx(1)).map((r) => r.pass), ['remove-identities']);
  assert.deepEqual(runPasses(make(), passes, { ...ctx(3), disabled: new Set(['fuse-activations']) }).map((r) => r.pass), ['remove-identities']);
  assert.deepEqual(runPasses(make(), passes, ctx(3)).map((r) => `${r.pass} ${r.nodesBefore}->${r.nodesAfter}`), ['remove-identities 5->4', 'fuse-activations 4->3']);
  assert.throws(() => runPasses(make(), [{ name: 'x', minLevel: 1, requires: ['y'], run: () => [] }], ctx()), /pass x requires y/);
});
