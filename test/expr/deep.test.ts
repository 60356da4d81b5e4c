// 10,000 levels of nesting: every stage gives a result or a clean ExprError, never a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileExpression, evaluateExpression, ExprError, inferExpression, parseExpression, postorder, printExpression,
  sameExpr, tokenize,
} from '../../src/expr/index.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

const DEPTH = 10_000;
const nest = (open: string, inner: string, close: string, depth = DEPTH): string => open.repeat(depth) + inner + close.repeat(depth);

test('a 10,000-deep unary chain: parse, print, RPN, shape, evaluate, compile', () => {
  const text = nest('neg(', '@0', ')');
  const parsed = parseExpression(text);
  assert.equal(printExpression(parsed.root), text);
  assert.equal(parsed.postorder.length, DEPTH + 1);
  assert.equal(postorder(parsed.root).length, DEPTH + 1);
  assert.ok(sameExpr(parsed.root, parseExpression(text).root));
  assert.deepEqual(inferExpression(parsed, [{ shape: [2, 3] }]), { shape: [2, 3], dtype: 'f32', isList: false });
  const x = Tensor.f32([2, 3], [1, -2, 3, -4, 5, -6]);
  assert.deepEqual([...evaluateExpression(parsed, [x]).f32], [...x.f32]); // an even number of negations
  const compiled = compileExpression(parsed, [[2, 3]]);
  const out = new Float32Array(6);
  compiled.run([x.f32], out);
  assert.deepEqual([...out], [...x.f32]);
});

test('a 10,000-deep right-nested binary chain keeps 10,000 values alive', () => {
  const text = nest('add(@0,', '@1', ')');
  const parsed = parseExpression(text);
  assert.equal(printExpression(parsed.root), text);
  const a = Tensor.f32([3], [1, 0.5, -1]);
  const b = Tensor.f32([2, 1], [2, 4]);
  const expected = [2, 4].flatMap((bv) => [1, 0.5, -1].map((av) => DEPTH * av + bv));
  assert.deepEqual([...evaluateExpression(parsed, [a, b]).f32], expected);
  const compiled = compileExpression(parsed, [[3], [2, 1]]);
  const out = new Float32Array(6);
  compiled.run([a.f32, b.f32], out);
  assert.deepEqual([...out], expected);
});

test('10,000 nested lists parse and fail cleanly on evaluation', () => {
  const text = nest('[', '1', ']');
  const parsed = parseExpression(text);
  assert.equal(printExpression(parsed.root), text);
  assert.throws(() => evaluateExpression(parsed, []), (error: unknown) => error instanceof ExprError && /bad list item/.test(error.message));
  assert.throws(() => inferExpression(parsed, []), ExprError);
});

test('malformed deep text gives a clean error', () => {
  assert.throws(() => parseExpression(`${nest('sqrt(', '@0', ')')})`), (error: unknown) =>
    error instanceof ExprError && /unbalanced brackets/.test(error.message) && error.location.column === DEPTH * 6 + 3);
  assert.throws(() => parseExpression(nest('sqrt(', '@0', ')').slice(0, -1)), (error: unknown) =>
    error instanceof ExprError && /close 'sqrt\(' opened at column 1,/.test(error.message));
  assert.equal(tokenize(nest('exp(', '1.0', ')')).length, 3 * DEPTH + 1); // name, '(' and ')' per level
});

test('100,000 levels still parse, print and type', () => {
  const text = nest('abs(', '@0', ')', 100_000);
  const parsed = parseExpression(text);
  assert.equal(printExpression(parsed.root).length, text.length);
  assert.deepEqual(inferExpression(parsed, [{ shape: [4] }]).shape, [4]);
});
