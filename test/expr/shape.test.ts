import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateExpression, ExprError, inferExpression, printExpression } from '../../src/expr/index.ts';
import { DYNAMIC } from '../../src/tensor/shape.ts';
import { broadcastCase, floatExpr, randomTensor } from './support.ts';

test('output shape and dtype by broadcasting', () => {
  const rule = inferExpression('mul(@0,@1)', [{ shape: [1, 16, 1, 1] }, { shape: [2, 16, 56, 56] }]);
  assert.deepEqual(rule, { shape: [2, 16, 56, 56], dtype: 'f32', isList: false });
  assert.deepEqual(inferExpression('add(@0,@1)', [{ shape: [3, 1] }, { shape: [2, 1, 4] }]).shape, [2, 3, 4]);
  assert.deepEqual(inferExpression('add(@0,1)', [{ shape: [], dtype: 'i32' }]), { shape: [], dtype: 'i32', isList: false });
  assert.equal(inferExpression('div(@0,2)', [{ shape: [4], dtype: 'i64' }]).dtype, 'f32');
  assert.equal(inferExpression('torch.bool(@0)', [{ shape: [4] }]).dtype, 'bool');
  assert.equal(inferExpression('and(@0,@1)', [{ shape: [4], dtype: 'bool' }, { shape: [4], dtype: 'bool' }]).dtype, 'bool');
});

test('lists give their length and the values known before the run', () => {
  const input = [{ shape: [1, 3, 8, 10] }];
  assert.deepEqual(inferExpression('[1,3,int(floor_divide(size(@0,2),2)),-1]', input),
    { shape: [4], dtype: 'i32', isList: true, value: [1, 3, 4, -1] });
  assert.deepEqual(inferExpression('size(@0)', input), { shape: [4], dtype: 'i32', isList: true, value: [1, 3, 8, 10] });
  assert.deepEqual(inferExpression('mul(size(@0,-1),2)', input), { shape: [], dtype: 'i32', isList: false, value: [20] });
  // a `?` dim is known only at run time; the list length still is
  const dynamic = [{ shape: [1, 3, DYNAMIC, 10] }];
  assert.deepEqual(inferExpression('[1,3,int(floor_divide(size(@0,2),2)),size(@0,3)]', dynamic).value, [1, 3, undefined, 10]);
  assert.deepEqual(inferExpression('[2.0,size(@0,1)]', input), { shape: [2], dtype: 'f32', isList: true, value: [2, 3] });
});

test('dynamic dims broadcast against known ones', () => {
  assert.deepEqual(inferExpression('add(@0,@1)', [{ shape: [DYNAMIC, 3, 1] }, { shape: [1, 3, 5] }]).shape, [DYNAMIC, 3, 5]);
  assert.deepEqual(inferExpression('add(@0,@1)', [{ shape: [DYNAMIC, 3] }, { shape: [4, 3] }]).shape, [4, 3]);
});

test('shapes that do not broadcast are named, with a caret under the function', () => {
  assert.throws(() => inferExpression('sqrt(add(@0,@1))', [{ shape: [1, 3, 4, 4] }, { shape: [1, 5, 4, 4] }]), (error: unknown) => {
    assert.ok(error instanceof ExprError);
    assert.match(error.message, /shapes do not broadcast in add: expected dimensions that are equal or 1, aligned from the right, found \(1,3,4,4\) and \(1,5,4,4\)/);
    assert.equal(error.message.split('\n')[2], `${' '.repeat(2 + 5)}^`);
    return true;
  });
  assert.throws(() => inferExpression('add(@0,@1)', [{ shape: [2, 3] }, { shape: [3, 2] }]), /found \(2,3\) and \(3,2\)/);
  assert.throws(() => inferExpression('add(@0,@2)', [{ shape: [2] }, { shape: [2] }]), /operand out of range: expected @0 to @1.*found @2/);
  assert.throws(() => inferExpression('add(@0,1)', [{ shape: [2], dtype: 'c64' }]), /unsupported input dtype: expected a real dtype.*found c64/);
});

test('property: the rule agrees with the evaluator on shape and dtype', () => {
  const cases = broadcastCase.chain((c) => floatExpr(c.inputs).map((expr) => ({ ...c, expr })));
  fc.assert(
    fc.property(cases, fc.integer(), ({ inputs, expr }, seed) => {
      const tensors = inputs.map((shape, i) => randomTensor(shape, seed + i));
      const rule = inferExpression(expr, inputs.map((shape) => ({ shape })));
      const out = evaluateExpression(expr, tensors);
      assert.deepEqual([rule.shape, rule.dtype], [out.shape, out.dtype], printExpression(expr));
    }),
    { numRuns: 150 },
  );
});
