import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  ExprError, call, float, formatRPN, int, list, operand, parseExpression, printExpression, sameExpr,
} from '../../src/expr/index.ts';
import { ParseError } from '../../src/errors.ts';
import { anyExpr } from './support.ts';

const rpn = (text: string): string => formatRPN(parseExpression(text).postorder);

test('seed design examples: trees and reverse-Polish order', () => {
  const a = parseExpression('add(@0,mul(@1,@2))');
  assert.ok(sameExpr(a.root, call('add', operand(0), call('mul', operand(1), operand(2)))));
  assert.equal(rpn('add(@0,mul(@1,@2))'), '@0 @1 @2 mul add');
  assert.equal(a.inputCount, 3);

  assert.ok(sameExpr(parseExpression('mul(@2,add(@0,@1))').root, call('mul', operand(2), call('add', operand(0), operand(1)))));
  assert.equal(rpn('mul(@2,add(@0,@1))'), '@2 @0 @1 add mul');

  const six = 'add(add(mul(@0,@1),mul(@2,add(add(add(@0,@2),@3),@4))),@5)';
  assert.equal(rpn(six), '@0 @1 mul @2 @0 @2 add @3 add @4 add mul add @5 add');
  assert.equal(parseExpression(six).inputCount, 6);

  const readme = parseExpression('sqrt(div(add(mul(@0,2),@1),12))');
  assert.ok(sameExpr(readme.root, call('sqrt', call('div', call('add', call('mul', operand(0), int(2)), operand(1)), int(12)))));
  assert.equal(formatRPN(readme.postorder), '@0 2 mul @1 add 12 div sqrt');
});

test('lists, size(), casts and literals parse; spans cover the source', () => {
  const p = parseExpression('[1,3,int(floor_divide(size(@0,-2),2)),-1]');
  assert.ok(sameExpr(p.root, list(int(1), int(3), call('int', call('floor_divide', call('size', operand(0), int(-2)), int(2))), int(-1))));
  assert.equal(formatRPN(p.postorder), '1 3 @0 -2 size 2 floor_divide int -1 [4]');
  assert.deepEqual(p.root.span, { start: 0, end: p.text.length });
  assert.ok(sameExpr(parseExpression('[]').root, list()));
  assert.ok(sameExpr(parseExpression('size(@1)').root, call('size', operand(1))));
  assert.ok(sameExpr(parseExpression('div(sub(@0,1.250000e-01),2.0)').root, call('div', call('sub', operand(0), float(0.125)), float(2))));
  assert.equal(parseExpression('torch.float(torch.long(@0))').inputCount, 1);
  assert.equal(parseExpression('mul(2,3)').inputCount, 0);
});

test('the printer writes PNNX text back', () => {
  for (const text of [
    'add(@0,mul(@1,@2))', 'sqrt(div(add(mul(@0,2),@1),12))', '[1,3,int(floor_divide(size(@0,2),2)),-1]',
    'div(sub(@0,0.125),2.0)', 'add(2.0+3.0j,-inf)', 'pow(@0,1e-7)', 'add(True,nan)', 'None', 'xor(False,@0)',
    'mul(@0,-0.0)', 'size(@3)', '[]',
  ]) {
    assert.equal(printExpression(parseExpression(text).root), text);
  }
  assert.equal(printExpression(call('mul', operand(0), float(2))), 'mul(@0,2.0)');
  assert.equal(printExpression(parseExpression('mul(@0,2.000000e+00)').root), 'mul(@0,2.0)');
});

test('property: any tree printed then parsed gives the same tree', () => {
  fc.assert(
    fc.property(anyExpr, (tree) => {
      const text = printExpression(tree);
      const parsed = parseExpression(text);
      assert.ok(sameExpr(parsed.root, tree), text);
      assert.equal(printExpression(parsed.root), text);
    }),
    { numRuns: 500 },
  );
});

function expectError(text: string, problem: RegExp, column: number, options?: { inputCount?: number }): ExprError {
  let caught: unknown;
  try {
    parseExpression(text, options);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ExprError, `${text} should fail`);
  assert.ok(caught instanceof ParseError);
  assert.match(caught.message, problem, text);
  assert.equal(caught.location.column, column, caught.message);
  const [, shown, caret] = caught.message.split('\n');
  assert.equal(shown, `  ${text}`);
  assert.equal(caret, `${' '.repeat(column + 1)}^`);
  return caught;
}

test('errors show the expression, a caret, what was found and what was expected', () => {
  expectError('sqr(@0)', /unknown function: expected a known function \(did you mean 'sqrt'\?\), found 'sqr'/, 1);
  expectError('add(@0,frobnicate(@1))', /unknown function: expected a known function such as add.*found 'frobnicate'/, 8);
  expectError('sqrt(@0,@1)', /wrong number of arguments: expected 1 argument for sqrt, found 2/, 1);
  expectError('mul(add(@0),@1)', /wrong number of arguments: expected 2 arguments for add, found 1/, 5);
  expectError('size(@0,1,2)', /wrong number of arguments: expected 1 or 2 arguments for size, found 3/, 1);
  expectError('add(@0,@2)', /operand out of range: expected @0 to @1 \(the node has 2 inputs\), found @2/, 8, { inputCount: 2 });
  expectError('add(@0,mul(@1,@2)', /unbalanced brackets: expected ',' or '\)' to close 'add\(' opened at column 1, found end of text/, 18);
  expectError('add(@0,@1))', /unbalanced brackets: expected end of expression, found '\)'/, 11);
  expectError('[1,2)', /unbalanced brackets: expected ',' or '\]' to close the list '\[' opened at column 1, found '\)'/, 5);
  expectError('add(@0,', /unexpected end: expected an expression, then '\)' to close 'add\(' opened at column 1, found end of text/, 8);
  expectError('add(@0,@1)mul', /trailing text: expected end of expression, found 'mul'/, 11);
  expectError('', /empty expression: expected an expression such as add\(@0,@1\), found end of text/, 1);
  expectError('   ', /empty expression/, 4);
  expectError('add(@0 @1)', /bad argument list: expected ',' or '\)'.*found '@1'/, 8);
  expectError('add(,@1)', /unexpected token: expected an expression, found ','/, 5);
  expectError('sqrt', /bad call: expected '\(' after 'sqrt', found end of text/, 5);
  expectError('size(mul(@0,2),1)', /bad size\(\): expected an operand @N as the first argument of size, found 'mul\(@0,2\)'/, 6);
  expectError('size(@0,1.0)', /bad size\(\): expected an integer dimension/, 9);
  expectError('mul(@0,1.2.3)', /bad number/, 11);
});

test('error excerpts stay short on long expressions', () => {
  const text = `${'add(@0,'.repeat(40)}bogus(@1)${')'.repeat(40)}`;
  const error = expectErrorLoose(text);
  assert.match(error.message, /unknown function/);
  const [, shown, caret] = error.message.split('\n');
  assert.ok(shown!.length < 120, shown);
  assert.equal(shown![caret!.indexOf('^')], 'b');
});

function expectErrorLoose(text: string): ExprError {
  try {
    parseExpression(text);
  } catch (error) {
    if (error instanceof ExprError) return error;
    throw error;
  }
  throw new Error(`${text} should fail`);
}
