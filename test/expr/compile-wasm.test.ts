// The SIMD wasm back end of the expression compiler against the evaluator (the oracle) and the JavaScript
// kernel: random expressions over the ops it covers, random broadcast shapes, NaN / ±0 / ±inf in the data,
// and output ranges that split rows anywhere; bit for bit, NaN equal to NaN.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { call, float, int, operand, parseExpression, printExpression, evaluateExpression, compileExpression, inferExpression, type Expr } from '../../src/expr/index.ts';
import { compileExpressionWasm } from '../../src/expr/compile-wasm.ts';
import { loadWatEncoder, watToWasm } from '../../src/kernels/wat.ts';
import { MAX_PAGES } from '../../src/kernels/abi.ts';
import { wasm } from '../../src/kernels/wasm.ts';
import { numel } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { broadcastCase, randomTensor, sameNumber } from './support.ts';

before(loadWatEncoder);

const memory = new wasm.Memory({ initial: 4, maximum: MAX_PAGES, shared: true });
const BASE = 1024;

const BINARY = ['add', 'sub', 'mul', 'div', 'max', 'min', 'maximum', 'minimum'];
const UNARY = ['neg', 'abs', 'sqrt', 'ceil', 'floor', 'trunc', 'square', 'reciprocal'];
const EDGE = [Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -Number.NaN];

/** Expressions of the covered ops; leaves are operands, float literals (±0 included) and small ints. */
function supportedExpr(inputs: number): fc.Arbitrary<Expr> {
  const leaf = fc.oneof(
    { arbitrary: fc.nat(inputs - 1).map(operand), weight: 4 },
    fc.constantFrom(0.2, 0.5, 1, -1.5, 6, -0, 0, 3.0e38).map(float),
    fc.integer({ min: -2, max: 3 }).map(int),
  );
  return fc.letrec<{ e: Expr }>((tie) => ({
    e: fc.oneof(
      { maxDepth: 5, depthSize: 'small' },
      leaf,
      fc.tuple(fc.constantFrom(...UNARY), tie('e')).map(([fn, a]) => call(fn, a)),
      { arbitrary: fc.tuple(fc.constantFrom(...BINARY), tie('e'), tie('e')).map(([fn, a, b]) => call(fn, a, b)), weight: 3 },
    ),
  })).e;
}

/** Runs the module over [0, size) in three calls split at `cuts`; returns the output elements. */
function runWasm(bytes: Uint8Array, inputs: readonly Tensor[], size: number, cuts: readonly number[]): Float32Array {
  const f32 = new Float32Array(memory.buffer);
  let at = BASE;
  const addresses = inputs.map((t) => {
    const address = at;
    f32.set(t.f32, address / 4);
    at += Math.ceil((t.f32.length + 1) / 4) * 16;
    return address;
  });
  const out = at;
  f32.fill(12345, out / 4, out / 4 + size + 8);
  const instance = new wasm.Instance(new wasm.Module(bytes), { env: { memory } });
  const run = instance.exports.run as (...args: number[]) => void;
  const bounds = [0, ...[...cuts].map((c) => Math.min(size, c)).sort((a, b) => a - b), size];
  for (let i = 0; i + 1 < bounds.length; i++) run(out, ...addresses, bounds[i]!, bounds[i + 1]!);
  assert.equal(f32[out / 4 + size], 12345, 'nothing written past the end');
  return f32.slice(out / 4, out / 4 + size);
}

function withEdges(t: Tensor, seed: number): Tensor {
  const data = t.f32;
  for (let i = 0; i < data.length; i++) if ((i * 7 + seed) % 5 === 0) data[i] = EDGE[(i + seed) % EDGE.length]!;
  return t;
}

const assertSame = (got: Float32Array, want: ArrayLike<number>, what: string) => {
  for (let i = 0; i < got.length; i++) {
    if (!sameNumber(got[i]!, want[i]!)) assert.fail(`${what}: element ${i} is ${got[i]}, expected ${want[i]}`);
  }
};

test('the wasm kernel equals the evaluator and the JavaScript kernel bit for bit', () => {
  const arb = broadcastCase.chain(({ inputs }) => fc.record({
    shapes: fc.constant(inputs),
    expr: supportedExpr(inputs.length),
    seed: fc.nat(1000),
    cuts: fc.array(fc.nat(3000), { minLength: 2, maxLength: 2 }),
  }));
  fc.assert(fc.property(arb, ({ shapes, expr, seed, cuts }) => {
    const parsed = parseExpression(printExpression(expr), { inputCount: shapes.length });
    // Integer-only trees (neg(2)) are no float tensor for either compiler.
    fc.pre(inferExpression(parsed, shapes.map((shape) => ({ shape }))).dtype === 'f32');
    const compiled = compileExpressionWasm(parsed, shapes);
    assert.ok(compiled, `covered: ${parsed.text}`);
    const inputs = shapes.map((s, j) => withEdges(randomTensor(s, seed + j), seed + j));
    const want = evaluateExpression(parsed, inputs);
    assert.deepEqual(compiled.outputShape, want.shape);
    const got = runWasm(watToWasm(compiled.wat), inputs, compiled.outputSize, cuts);
    assertSame(got, want.f32, `${parsed.text} over ${JSON.stringify(shapes)}`);
    const js = new Float32Array(numel(compiled.outputShape));
    compileExpression(parsed, shapes).run(inputs.map((t) => t.f32), js);
    assertSame(got, js, `${parsed.text} (JavaScript kernel)`);
  }), { numRuns: 150 });
});

test('long rows run through the f32x4 body, broadcast rows and 0-d operands included', () => {
  const cases: Array<[string, number[][]]> = [
    ['add(add(@1,mul(@1,min(max(add(mul(@2,0.2),0.5),0.0),1.0))),@0)', [[1, 6, 5, 96], [1, 6, 5, 96], [1, 1, 1, 96]]],
    ['max(@0,0)', [[3, 37]]],
    ['div(sub(@0,@1),sqrt(add(@2,0.00001)))', [[2, 5, 33], [2, 5, 1], []]],
    ['mul(@0,@0)', [[1030]]],
    ['min(max(@0,-1.0),@1)', [[4, 1, 9], [1, 7, 1]]],
  ];
  for (const [text, shapes] of cases) {
    const parsed = parseExpression(text, { inputCount: shapes.length });
    const compiled = compileExpressionWasm(parsed, shapes)!;
    const inputs = shapes.map((s, j) => withEdges(randomTensor(s, 3 + j), j));
    const size = compiled.outputSize;
    const got = runWasm(watToWasm(compiled.wat), inputs, size, [Math.floor(size / 3) + 1, Math.floor(size / 2) + 2]);
    assertSame(got, evaluateExpression(parsed, inputs).f32, text);
  }
});

test('NaN propagates through min and max, and -0 orders below +0, as the evaluator does', () => {
  const parsed = parseExpression('add(max(@0,@1),min(@0,@1))', { inputCount: 2 });
  const a = Tensor.f32([8], [Number.NaN, 1, -0, 0, -0, Number.NaN, 2, 3]);
  const b = Tensor.f32([8], [1, Number.NaN, 0, -0, -0, Number.NaN, -0, 3]);
  const compiled = compileExpressionWasm(parsed, [[8], [8]])!;
  const got = runWasm(watToWasm(compiled.wat), [a, b], 8, [3, 5]);
  assertSame(got, evaluateExpression(parsed, [a, b]).f32, parsed.text);
  const relu = parseExpression('max(@0,0)', { inputCount: 1 });
  const x = Tensor.f32([9], [-0, Number.NaN, -1, 0.5, -0, -0, -0, -0, Number.NaN]);
  assertSame(runWasm(watToWasm(compileExpressionWasm(relu, [[9]])!.wat), [x], 9, [4, 8]), evaluateExpression(relu, [x]).f32, 'relu');
});

test('anything else is left to the JavaScript kernel', () => {
  for (const text of ['exp(@0)', 'tanh(@0)', 'pow(@0,2)', 'erf(@0)', 'rsqrt(@0)', 'add(@0,torch.float(int(@0)))', 'remainder(@0,2)', 'neg(int(@0))', 'mul(@0,size(@0,0))']) {
    const parsed = parseExpression(text, { inputCount: 1 });
    if (text.startsWith('mul')) assert.ok(compileExpressionWasm(parsed, [[3, 4]]), 'a folded size() is a constant');
    else assert.equal(compileExpressionWasm(parsed, [[3, 4]]), undefined, text);
  }
  assert.equal(compileExpressionWasm(parseExpression('add(@0,1)', { inputCount: 1 }), [[0, 4]]), undefined, 'empty output');
});
