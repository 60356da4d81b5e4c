import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateExpression, ExprError } from '../../src/expr/index.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import type { DType } from '../../src/tensor/dtype.ts';

const f32 = (shape: number[], values: number[]): Tensor => Tensor.f32(shape, values);
const i32 = (shape: number[], values: number[]): Tensor => new Tensor('i32', shape, Int32Array.from(values));
const boolT = (shape: number[], values: boolean[]): Tensor => new Tensor('bool', shape, Uint8Array.from(values, Number));
const full = (shape: number[], value: number): Tensor => f32(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(value));

function expectValues(text: string, inputs: Tensor[], dtype: DType, shape: number[], values: number[]): void {
  const out = evaluateExpression(text, inputs);
  assert.equal(out.dtype, dtype, text);
  assert.deepEqual(out.shape, shape, text);
  assert.deepEqual(Array.from(out.data as ArrayLike<number>), values, text);
}

function expectFailure(text: string, inputs: Tensor[], message: RegExp): void {
  assert.throws(() => evaluateExpression(text, inputs), (error: unknown) => {
    assert.ok(error instanceof ExprError, String(error));
    assert.match(error.message, message);
    return true;
  });
}

test('README example sqrt((2*x + y) / 12), computed by hand', () => {
  // (2*1+10)/12 = 1 -> 1; (2*4+40)/12 = 4 -> 2; (2*-1+5)/12 = 0.25 -> 0.5
  expectValues('sqrt(div(add(mul(@0,2),@1),12))', [f32([3], [1, 4, -1]), f32([3], [10, 40, 5])], 'f32', [3], [1, 2, 0.5]);
});

test('seed design examples', () => {
  expectValues('add(@0,mul(@1,@2))', [f32([2], [1, 2]), f32([2], [3, 4]), f32([2], [5, 6])], 'f32', [2], [16, 26]);
  expectValues('mul(@2,add(@0,@1))', [f32([2], [1, 2]), f32([2], [3, 4]), f32([2], [5, 6])], 'f32', [2], [20, 36]);
  // @i = i+1 everywhere: 1*2 + 3*(1+3+4+5) + 6 = 47, at the (4,1,4,4) batch-4 shapes of yolov5s_batch4
  const inputs = [0, 1, 2, 3, 4, 5].map((i) => full([4, 1, 4, 4], i + 1));
  const out = evaluateExpression('add(add(mul(@0,@1),mul(@2,add(add(add(@0,@2),@3),@4))),@5)', inputs);
  assert.deepEqual(out.shape, [4, 1, 4, 4]);
  assert.ok([...out.f32].every((v) => v === 47));
});

test('broadcasting from the right: (N,C,1,1) times (N,C,H,W) with batch 2', () => {
  const scale = f32([2, 3, 1, 1], [1, 2, 3, 4, 5, 6]);
  const x = full([2, 3, 2, 2], 10);
  const out = evaluateExpression('mul(@0,@1)', [scale, x]);
  assert.deepEqual(out.shape, [2, 3, 2, 2]);
  assert.deepEqual([...out.f32], [1, 2, 3, 4, 5, 6].flatMap((s) => [10 * s, 10 * s, 10 * s, 10 * s]));
  // rank difference: a (3,1) against a (2,1,4)
  expectValues('sub(@0,@1)', [f32([3, 1], [1, 2, 3]), f32([2, 1, 4], [0, 1, 2, 3, 4, 5, 6, 7])], 'f32', [2, 3, 4],
    [0, 1].flatMap((b) => [1, 2, 3].flatMap((r) => [0, 1, 2, 3].map((c) => r - (b * 4 + c)))));
});

test('0-d operands, an operand used twice, scalars only', () => {
  expectValues('add(@0,@1)', [f32([], [0.5]), f32([2, 2], [1, 2, 3, 4])], 'f32', [2, 2], [1.5, 2.5, 3.5, 4.5]);
  expectValues('mul(@0,@0)', [f32([3], [-2, 3, 0.5])], 'f32', [3], [4, 9, 0.25]);
  expectValues('add(mul(@0,@1),@0)', [f32([], [2]), f32([], [3])], 'f32', [], [8]);
  expectValues('add(2,3)', [], 'i32', [], [5]);
  expectValues('div(7,2)', [], 'f32', [], [3.5]);
});

test('floor_divide floors, remainder takes the divisor sign, fmod the dividend sign', () => {
  const a = i32([4], [-7, 7, -7, 7]);
  const b = i32([4], [2, -2, -2, 2]);
  expectValues('floor_divide(@0,@1)', [a, b], 'i32', [4], [-4, -4, 3, 3]);
  expectValues('remainder(@0,@1)', [a, b], 'i32', [4], [1, -1, -1, 1]);
  expectValues('fmod(@0,@1)', [a, b], 'i32', [4], [-1, 1, -1, 1]);
  const x = f32([4], [-7.5, 7.5, -7.5, 7.5]);
  const y = f32([4], [2, -2, -2, 2]);
  expectValues('floor_divide(@0,@1)', [x, y], 'f32', [4], [-4, -4, 3, 3]);
  expectValues('remainder(@0,@1)', [x, y], 'f32', [4], [0.5, -0.5, -1.5, 1.5]);
  expectValues('fmod(@0,@1)', [x, y], 'f32', [4], [-1.5, 1.5, -1.5, 1.5]);
  expectValues('floor_divide(-7,2)', [], 'i32', [], [-4]);
  expectValues('remainder(-1,5)', [], 'i32', [], [4]);
  expectFailure('floor_divide(@0,0)', [a], /integer division by zero: expected non-zero divisors.*found a zero divisor in floor_divide/);
  expectFailure('remainder(5,sub(@0,@0))', [a], /integer division by zero/);
  // float division by zero follows IEEE, as in PyTorch
  expectValues('floor_divide(@0,0.0)', [f32([2], [1, -1])], 'f32', [2], [Infinity, -Infinity]);
});

test('round is half to even', () => {
  expectValues('round(@0)', [f32([9], [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 0.49999997, 2.6])], 'f32', [9],
    [0, 2, 2, -0, -2, -2, 4, 0, 3]);
  assert.ok(Object.is(evaluateExpression('round(-0.5)', []).f32[0], -0));
});

test('int vs float result dtypes follow PyTorch', () => {
  const a = i32([3], [7, -3, 2]);
  const b = i32([3], [2, 2, 10]);
  expectValues('add(@0,@1)', [a, b], 'i32', [3], [9, -1, 12]);
  expectValues('mul(sub(@0,@1),3)', [a, b], 'i32', [3], [15, -15, -24]);
  expectValues('max(@0,@1)', [a, b], 'i32', [3], [7, 2, 10]);
  expectValues('add(@0,1.5)', [a], 'f32', [3], [8.5, -1.5, 3.5]);
  expectValues('div(@0,@1)', [a, b], 'f32', [3], [3.5, -1.5, 0.2].map(Math.fround));
  expectValues('pow(@0,@1)', [a, b], 'i32', [3], [49, 9, 1024]);
  expectValues('pow(@0,-1)', [i32([4], [1, -1, 2, 0])], 'i32', [4], [1, -1, 0, 0]);
  expectValues('pow(@0,0.5)', [i32([2], [4, 9])], 'f32', [2], [2, 3]);
  expectValues('atan2(@0,@1)', [i32([1], [0]), i32([1], [1])], 'f32', [1], [0]);
  expectValues('sqrt(@0)', [i32([2], [4, 9])], 'f32', [2], [2, 3]);
  expectValues('abs(neg(@0))', [a], 'i32', [3], [7, 3, 2]);
  expectValues('square(@0)', [a], 'i32', [3], [49, 9, 4]);
  expectValues('sign(@0)', [a], 'i32', [3], [1, -1, 1]);
  expectValues('floor(@0)', [a], 'i32', [3], [7, -3, 2]);
  expectValues('mul(65536,65536)', [], 'i32', [], [0]); // int32 wrap-around
});

test('casts: int truncates, torch.float/long/bool, narrow ints wrap', () => {
  const x = f32([5], [-2.7, 2.7, 0, 0.2, 300]);
  expectValues('int(@0)', [x], 'i32', [5], [-2, 2, 0, 0, 300]);
  expectValues('torch.long(@0)', [x], 'i32', [5], [-2, 2, 0, 0, 300]);
  expectValues('torch.bool(@0)', [x], 'bool', [5], [1, 1, 0, 1, 1]);
  expectValues('torch.uint8(@0)', [x], 'i32', [5], [254, 2, 0, 0, 44]);
  expectValues('torch.int8(@0)', [x], 'i32', [5], [-2, 2, 0, 0, 44]);
  expectValues('torch.float(floor_divide(@0,2))', [i32([2], [5, -5])], 'f32', [2], [2, -3]);
  expectValues('int(div(size(@0,2),2))', [f32([1, 1, 7], new Array(7).fill(0))], 'i32', [], [3]);
  expectFailure('torch.complex64(@0)', [x], /unsupported cast/);
});

test('bitwise ops on ints and bools; bools stay bool where PyTorch keeps them', () => {
  const a = i32([3], [12, -1, 5]);
  const b = i32([3], [10, 3, 1]);
  expectValues('and(@0,@1)', [a, b], 'i32', [3], [8, 3, 1]);
  expectValues('or(@0,@1)', [a, b], 'i32', [3], [14, -1, 5]);
  expectValues('xor(@0,@1)', [a, b], 'i32', [3], [6, -4, 4]);
  expectValues('lshift(@0,@1)', [a, b], 'i32', [3], [12288, -8, 10]);
  expectValues('rshift(@0,@1)', [a, b], 'i32', [3], [0, -1, 2]);
  const p = boolT([4], [true, true, false, false]);
  const q = boolT([4], [true, false, true, false]);
  expectValues('xor(@0,@1)', [p, q], 'bool', [4], [0, 1, 1, 0]);
  expectValues('add(@0,@1)', [p, q], 'bool', [4], [1, 1, 1, 0]);
  expectValues('mul(@0,True)', [p], 'bool', [4], [1, 1, 0, 0]);
  expectValues('sub(@0,@1)', [p, q], 'i32', [4], [0, 1, -1, 0]);
  expectValues('add(@0,2)', [p], 'i32', [4], [3, 3, 2, 2]);
  expectFailure('and(@0,1.5)', [a], /bad operand type: expected integer or bool operands for and.*found int and float operands/);
});

test('64-bit integer and bool inputs are read', () => {
  const big = new Tensor('i64', [3], BigInt64Array.from([5n, -6n, 2n ** 40n + 3n]));
  expectValues('add(@0,1)', [big], 'i32', [3], [6, -5, 4]);
  expectValues('mul(@0,2.5)', [boolT([2], [true, false])], 'f32', [2], [2.5, 0]);
});

test('size() with negative dims, whole-shape size(), and lists', () => {
  const x = full([2, 3, 5, 7], 0);
  expectValues('size(@0,-1)', [x], 'i32', [], [7]);
  expectValues('size(@0,-4)', [x], 'i32', [], [2]);
  expectValues('size(@0,1)', [x], 'i32', [], [3]);
  expectValues('size(@0)', [x], 'i32', [4], [2, 3, 5, 7]);
  expectValues('[1,-1,int(floor_divide(size(@0,2),2))]', [x], 'i32', [3], [1, -1, 2]);
  expectValues('[size(@0,0),mul(size(@0,-1),size(@0,-2))]', [x], 'i32', [2], [2, 35]);
  expectValues('[2.0,2.0]', [], 'f32', [2], [2, 2]);
  expectValues('[]', [], 'i32', [0], []);
  expectValues('mul(@0,size(@0,-1))', [f32([2], [1.5, 2])], 'f32', [2], [3, 4]);
  expectFailure('size(@0,4)', [x], /dimension out of range: expected a dimension from -4 to 3 of a 4-d operand, found 4/);
  expectFailure('size(@0,-5)', [x], /dimension out of range/);
  expectFailure('size(@0,0)', [f32([], [1])], /dimension out of range: expected a tensor with dimensions/);
  expectFailure('[1,@0]', [x], /bad list item: expected scalars as list items, found a tensor of 210 elements/);
  expectFailure('add(size(@0),1)', [x], /list operand: expected a tensor or a scalar as an argument of add, found a list of 4 items/);
});

test('semantic errors point at the node', () => {
  assert.throws(() => evaluateExpression('add(@0,mul(@1,@2))', [f32([1], [1]), f32([1], [1])]), (error: unknown) => {
    assert.ok(error instanceof ExprError);
    assert.match(error.message, /operand out of range: expected @0 to @1 \(the node has 2 inputs\), found @2/);
    assert.equal(error.location.column, 15);
    return true;
  });
  assert.throws(() => evaluateExpression('mul(@0,add(@1,@0))', [full([1, 3, 4, 4], 1), full([1, 5, 4, 4], 1)]), (error: unknown) => {
    assert.ok(error instanceof ExprError);
    assert.match(error.message, /shapes do not broadcast in add: expected dimensions that are equal or 1, aligned from the right, found \(1,5,4,4\) and \(1,3,4,4\)/);
    assert.equal(error.location.column, 8);
    return true;
  });
  expectFailure('add(@0,None)', [f32([1], [1])], /unsupported value: expected a number or a tensor, found None/);
  expectFailure('mul(@0,1.0+2.0j)', [f32([1], [1])], /unsupported value.*found a complex literal/);
});
