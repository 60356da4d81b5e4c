import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExprError, tokenize, type Token } from '../../src/expr/index.ts';

const kinds = (text: string): string[] => tokenize(text).map((t) => `${t.kind}:${t.text}`);
const valueOf = (token: Token): number => ('value' in token ? token.value : NaN);

test('the 6-input seed expression tokenizes with positions', () => {
  const text = 'add(add(mul(@0,@1),mul(@2,add(add(add(@0,@2),@3),@4))),@5)';
  const tokens = tokenize(text);
  assert.deepEqual(tokens.map((t) => t.text).join(''), text);
  assert.deepEqual(kinds('add(add(mul(@0,@1),'), [
    'name:add', '(:(', 'name:add', '(:(', 'name:mul', '(:(', 'operand:@0', ',:,', 'operand:@1', '):)', ',:,',
  ]);
  assert.equal(tokens.filter((t) => t.kind === 'operand').map((t) => t.text).join(' '), '@0 @1 @2 @0 @2 @3 @4 @5');
  for (const t of tokens) assert.equal(text.slice(t.start, t.end), t.text);
  const five = tokens.find((t) => t.text === '@5')!;
  assert.deepEqual([five.start, five.end, valueOf(five)], [text.indexOf('@5'), text.indexOf('@5') + 2, 5]);
});

test('every float spelling PNNX has written', () => {
  const cases: [string, number][] = [
    ['1.000000e-05', 1e-5], ['2.000000e+00', 2], ['0.5', 0.5], ['1e-05', 1e-5], ['1.0e6', 1e6], ['1.000000e-5', 1e-5],
    ['-3.5e6', -3.5e6], ['0.0', 0], ['2.', 2], ['.25', 0.25], ['1E3', 1000], ['-1.250000e-01', -0.125],
    ['inf', Infinity], ['-inf', -Infinity],
  ];
  for (const [text, value] of cases) {
    const [token] = tokenize(text);
    assert.equal(token!.kind, 'float', text);
    assert.equal(valueOf(token!), value, text);
  }
  assert.ok(Number.isNaN(valueOf(tokenize('nan')[0]!)));
  assert.ok(Object.is(valueOf(tokenize('-0.0')[0]!), -0));
});

test('ints, operands, keywords, dotted names, brackets', () => {
  assert.deepEqual(kinds('[1,-1,int(size(@0,-2))]'), [
    '[:[', 'int:1', ',:,', 'int:-1', ',:,', 'name:int', '(:(', 'name:size', '(:(', 'operand:@0', ',:,', 'int:-2', '):)', '):)', ']:]',
  ]);
  assert.deepEqual(kinds('torch.float(None,True,False)'), ['name:torch.float', '(:(', 'none:None', ',:,', 'true:True', ',:,', 'false:False', '):)']);
  assert.equal(valueOf(tokenize('-2147483648')[0]!), -2147483648);
  assert.equal(valueOf(tokenize('2147483647')[0]!), 2147483647);
  assert.deepEqual(kinds('add( @0 , 1 )'), ['name:add', '(:(', 'operand:@0', ',:,', 'int:1', '):)']);
});

test('complex literals', () => {
  const [c] = tokenize('2.000000e+00+3.000000e+00j');
  assert.equal(c!.kind, 'complex');
  assert.deepEqual(c!.kind === 'complex' && [c.re, c.im], [2, 3]);
  const [d] = tokenize('-1.5-2.5e-01j');
  assert.deepEqual(d!.kind === 'complex' && [d.re, d.im], [-1.5, -0.25]);
  const [e] = tokenize('4.0j');
  assert.deepEqual(e!.kind === 'complex' && [e.re, e.im], [0, 4]);
  const [f] = tokenize('1.0+infj');
  assert.deepEqual(f!.kind === 'complex' && [f.re, f.im], [1, Infinity]);
});

test('bad numbers and characters point at the offending column', () => {
  const cases: [string, number, RegExp][] = [
    ['1.2.3', 4, /bad number: expected a digit.*found '\.' in '1\.2\.3'/],
    ['add(@0,1e)', 10, /bad number: expected digits after the exponent, found '\)' in '1e'/],
    ['12abc', 3, /bad number.*found 'a' in '12abc'/],
    ['mul(@0,-)', 8, /bad number: expected digits, inf or nan, found '-'/],
    ['99999999999', 1, /bad number: expected an integer within 32 bits/],
    ['2.0+3.0', 8, /bad complex number: expected an imaginary part ending in 'j'.*found end of text/],
    ['@', 2, /bad operand: expected the digits of an input index/],
    ['@1x', 3, /bad operand.*found 'x' after '@1'/],
    ['add(@0,#1)', 8, /unexpected character.*found '#'/],
    ['add(@0;@1)', 7, /bad operand: expected ',', '\)' or '\]', found ';' after '@0'/],
    ['torch.(@0)', 7, /bad name: expected a name part after 'torch\.'/],
  ];
  for (const [text, column, message] of cases) {
    assert.throws(() => tokenize(text), (error: unknown) => {
      assert.ok(error instanceof ExprError, text);
      assert.equal(error.location.column, column, `${text}: ${error.message}`);
      assert.match(error.message, message);
      // the caret line sits under the column
      const caretLine = error.message.split('\n')[2]!;
      assert.equal(caretLine.indexOf('^'), 2 + column - 1, error.message);
      return true;
    });
  }
});
