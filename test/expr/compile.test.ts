import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import {
  compileExpression, evaluateExpression, ExprError, kernelFromSource, printExpression, type KernelArray,
} from '../../src/expr/index.ts';
import { HELPERS, helperSource } from '../../src/expr/scalar.ts';
import { UsageError } from '../../src/errors.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { broadcastCase, floatExpr, indices, randomTensor, referenceAt, sameNumber } from './support.ts';

const cases = broadcastCase.chain((c) => floatExpr(c.inputs).map((expr) => ({ ...c, expr })));

/** Throws the evaluator's error, or returns its result. */
const evaluate = (text: string, inputs: Tensor[]): Tensor | ExprError => {
  try {
    return evaluateExpression(text, inputs);
  } catch (error) {
    if (error instanceof ExprError) return error;
    throw error;
  }
};

test('property: evaluator equals an independent per-element reference', () => {
  fc.assert(
    fc.property(cases, fc.integer(), ({ inputs, expr }, seed) => {
      const text = printExpression(expr);
      const tensors = inputs.map((shape, i) => randomTensor(shape, seed + i));
      const out = evaluateExpression(text, tensors);
      let flat = 0;
      for (const index of indices(out.shape)) {
        const expected = referenceAt(expr, tensors, out.shape, index);
        const got = out.f32[flat++]!;
        if (!sameNumber(got, expected)) {
          assert.fail(`${text} at [${index}] of ${JSON.stringify(out.shape)} from ${JSON.stringify(inputs)}: expected ${expected}, got ${got}`);
        }
      }
    }),
    { numRuns: Number(process.env.EXPR_RUNS ?? 300) },
  );
});

test('property: the fused kernel equals the evaluator bit for bit, over any split of the output', () => {
  fc.assert(
    fc.property(cases, fc.integer(), fc.double({ min: 0, max: 1, noNaN: true }), ({ inputs, expr }, seed, cut) => {
      const text = printExpression(expr);
      const tensors = inputs.map((shape, i) => randomTensor(shape, seed + i));
      const expected = evaluate(text, tensors);
      const compiled = compileExpression(text, inputs);
      const out = new Float32Array(compiled.outputSize).fill(NaN);
      const middle = Math.floor(cut * compiled.outputSize);
      const run = (): void => {
        compiled.run(tensors.map((t) => t.f32), out, 0, middle);
        compiled.run(tensors.map((t) => t.f32), out, middle);
      };
      if (expected instanceof ExprError) {
        assert.throws(run, ExprError);
        return;
      }
      run();
      assert.deepEqual(compiled.outputShape, expected.shape);
      for (let i = 0; i < out.length; i++) {
        if (!Object.is(out[i], expected.f32[i])) assert.fail(`${text} element ${i}: evaluator ${expected.f32[i]}, kernel ${out[i]}\n${compiled.source}`);
      }
    }),
    { numRuns: Number(process.env.EXPR_RUNS ?? 300) },
  );
});

test('inputs and output may be views into one shared buffer', () => {
  const text = 'sqrt(div(add(mul(@0,2),@1),12))';
  const compiled = compileExpression(text, [[2, 3, 1, 1], [1, 3, 4, 5]]);
  const buffer = new SharedArrayBuffer(4 * (6 + 60 + 120 + 8));
  const a = new Float32Array(buffer, 4, 6);
  const b = new Float32Array(buffer, 4 * 7, 60);
  const out = new Float32Array(buffer, 4 * 70, 120);
  a.set(randomTensor([6], 1).f32.map(Math.abs));
  b.set(randomTensor([60], 2).f32.map(Math.abs));
  compiled.run([a, b], out);
  const expected = evaluateExpression(text, [
    Tensor.f32([2, 3, 1, 1], a.slice()), Tensor.f32([1, 3, 4, 5], b.slice()),
  ]);
  assert.deepEqual([...out], [...expected.f32]);
  assert.equal(new Float32Array(buffer, 4 * 190, 4).every((v) => v === 0), true, 'nothing written past the output');
});

test('each input element is read once per output element that uses it', () => {
  const counted = (length: number): { array: Float32Array; reads: number[] } => {
    const reads = new Array<number>(length).fill(0);
    const target = new Float32Array(length).fill(1);
    const array = new Proxy(target, {
      get(t, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads[Number(key)]!++;
        return Reflect.get(t, key);
      },
    });
    return { array, reads };
  };
  // (1,C,1,1) scale against (1,C,H,W), C=3, H*W=8; @1 is used twice in the expression
  const compiled = compileExpression('add(mul(@0,@1),@1)', [[1, 3, 1, 1], [1, 3, 2, 4]]);
  const scale = counted(3);
  const x = counted(24);
  compiled.kernel([scale.array, x.array], new Float32Array(24), 0, 24);
  assert.deepEqual(scale.reads, [1, 1, 1], 'broadcast input: once per row');
  assert.deepEqual(x.reads, new Array(24).fill(1), 'full input: once per element, though used twice');
  // a 0-d input is read once per call
  const zeroD = compileExpression('mul(@0,@1)', [[], [5]]);
  const s = counted(1);
  zeroD.kernel([s.array, new Float32Array(5)], new Float32Array(5), 0, 5);
  assert.deepEqual(s.reads, [1]);
});

test('constants fold and the source rebuilds the kernel', () => {
  const compiled = compileExpression('mul(@0,div(size(@0,-1),add(2,2)))', [[2, 8]]);
  assert.match(compiled.source, /\(2\)/, 'size(@0,-1)/(2+2) folded to 2');
  assert.doesNotMatch(compiled.source, /\$floorDivideInt|size/);
  const kernel = kernelFromSource(compiled.source);
  const out = new Float32Array(16);
  kernel([Float32Array.from({ length: 16 }, (_, i) => i)], out, 0, 16);
  assert.deepEqual([...out], Array.from({ length: 16 }, (_, i) => 2 * i));
});

test('a worker thread rebuilds the kernel from its descriptor and fills its half of a shared output', async () => {
  // erf and round make the source carry helper functions, which must run outside this module too
  const text = 'add(sqrt(div(add(mul(@0,2),@1),12)),erf(round(@1)))';
  const compiled = compileExpression(text, [[2, 3, 4, 4], [1, 3, 1, 1]]);
  assert.match(compiled.source, /const \$erf = /);
  assert.match(compiled.source, /const \$roundHalfEven = /);
  const share = (values: Float32Array): Float32Array => {
    const view = new Float32Array(new SharedArrayBuffer(values.byteLength));
    view.set(values);
    return view;
  };
  const a = share(randomTensor([96], 3).f32.map(Math.abs));
  const b = share(randomTensor([3], 4).f32.map(Math.abs));
  const out = new Float32Array(new SharedArrayBuffer(96 * 4));
  const half = 48;
  const worker = new Worker(
    `const { parentPort, workerData: d } = require('node:worker_threads');
     const kernel = new Function(d.descriptor.source)();
     kernel(d.inputs, d.output, d.begin, d.end);
     parentPort.postMessage('done');`,
    {
      eval: true,
      workerData: {
        descriptor: { source: compiled.source, inputShapes: compiled.inputShapes, outputShape: compiled.outputShape },
        inputs: [a, b], output: out, begin: half, end: 96,
      },
    },
  );
  compiled.run([a, b], out, 0, half);
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  await worker.terminate();
  const expected = evaluateExpression(text, [Tensor.f32([2, 3, 4, 4], a.slice()), Tensor.f32([1, 3, 1, 1], b.slice())]);
  assert.deepEqual([...out], [...expected.f32]);
});

test('int and bool inputs compile too', () => {
  const compiled = compileExpression('add(mul(@0,0.5),@1)', [[4], [4]], { inputDTypes: ['i32', 'bool'] });
  const out = new Float32Array(4);
  compiled.run([Int32Array.of(1, 2, 3, 2 ** 25 + 1), Uint8Array.of(1, 0, 1, 0)] as KernelArray[], out);
  assert.deepEqual([...out], [1.5, 1, 2.5, 2 ** 24]);
});

test('compile refuses what it cannot fuse and run checks its arguments', () => {
  assert.throws(() => compileExpression('add(@0,1)', [[4]], { inputDTypes: ['i32'] }), /not a float tensor: expected a float tensor result.*found an int result/);
  assert.throws(() => compileExpression('[1,size(@0,0)]', [[4]]), /found a list int result/);
  assert.throws(() => compileExpression('add(@0,@1)', [[-1, 4], [4]]), UsageError);
  assert.throws(() => compileExpression('add(@0,@1)', [[3], [4]]), /shapes do not broadcast in add.*found \(3\) and \(4\)/);
  const compiled = compileExpression('add(@0,@1)', [[4], [4]]);
  const x = new Float32Array(4);
  assert.throws(() => compiled.run([x], x), /expected 2 inputs, got 1/);
  assert.throws(() => compiled.run([x, new Float32Array(3)], x), /input @1 \(4\) needs 4 elements, got 3/);
  assert.throws(() => compiled.run([x, x], new Float32Array(5)), /output \(4\) needs 4 elements, got 5/);
  assert.throws(() => compiled.run([x, x], x, 3, 2), /range \[3, 2\) is not within \[0, 4\]/);
  const division = compileExpression('torch.float(floor_divide(int(@0),int(@1)))', [[2], [2]]);
  assert.throws(() => division.run([Float32Array.of(4, 4), Float32Array.of(2, 0.5)], new Float32Array(2)), /integer division by zero/);
});

test('every helper runs from its source text alone, as generated kernels embed it', () => {
  const probes: [number, number][] = [[7, 2], [-7, 2], [7.5, -2], [0.5, 3], [-1, Infinity]];
  for (const [name, helper] of Object.entries(HELPERS)) {
    const rebuilt = new Function(`"use strict"; ${helperSource([name as keyof typeof HELPERS])} return $${name};`)() as (a: number, b: number) => number;
    for (const [a, b] of probes) assert.ok(Object.is(rebuilt(a, b), (helper as (a: number, b: number) => number)(a, b)), `${name}(${a}, ${b})`);
  }
});
