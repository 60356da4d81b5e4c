import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { printPnnxParam } from '../../src/format/pnnx/print-param.ts';
import { ParseError } from '../../src/errors.ts';
import { snapshot } from '../helpers/graph-snapshot.ts';
import { SKIP_SHARED, sharedParamFiles } from '../helpers/shared.ts';

const SPEC_EXAMPLE = `7767517
5 4
pnnx.Input      pnnx_input_0   0 1 0 #0=(1,3,8,8)f32
nn.Conv2d       conv1          1 1 0 1 bias=True dilation=(1,1) groups=1 in_channels=3 kernel_size=(3,3) out_channels=4 padding=(1,1) padding_mode=zeros stride=(1,1) @bias=(4)f32 @weight=(4,3,3,3)f32 #0=(1,3,8,8)f32 #1=(1,4,8,8)f32
nn.ReLU         relu1          1 1 1 2 #1=(1,4,8,8)f32 #2=(1,4,8,8)f32
pnnx.Expression pnnx_expr_0    2 1 1 2 3 expr=add(@0,mul(@1,5.000000e-01)) #1=(1,4,8,8)f32 #2=(1,4,8,8)f32 #3=(1,4,8,8)f32
pnnx.Output     pnnx_output_0  1 0 3 #3=(1,4,8,8)f32
`;

test('parses the spec example: operators, operands, params, weights, annotations', () => {
  const g = parsePnnxParam(SPEC_EXAMPLE, 'example.pnnx.param');
  assert.equal(g.nodes.length, 5);
  assert.equal(g.values.size, 4);
  const conv = g.nodes[1]!;
  assert.equal(conv.type, 'nn.Conv2d');
  assert.equal(conv.name, 'conv1');
  assert.deepEqual(conv.params.get('bias'), { kind: 'bool', value: true });
  assert.deepEqual(conv.params.get('kernel_size'), { kind: 'ints', value: [3, 3] });
  assert.deepEqual(conv.params.get('padding_mode'), { kind: 'string', value: 'zeros' });
  assert.deepEqual(conv.weights.get('weight'), { dtype: 'f32', shape: [4, 3, 3, 3] });
  assert.deepEqual(conv.source, { file: 'example.pnnx.param', line: 4 });
  assert.deepEqual(g.nodes[3]!.params.get('expr'), { kind: 'string', value: 'add(@0,mul(@1,5.000000e-01))' });
  assert.deepEqual(g.values.get('1')!.annotation, { shape: [1, 4, 8, 8], dtype: 'f32' });
  assert.equal(g.values.get('1')!.producer, conv);
  assert.deepEqual(g.values.get('1')!.consumers.map((n) => n.name), ['relu1', 'pnnx_expr_0']);
  assert.deepEqual(g.inputs.map((v) => v.name), ['0']);
  assert.deepEqual(g.outputs.map((v) => v.name), ['3']);
});

test('every literal kind is typed as pnnx types it', () => {
  const line = 'Foo f 0 1 0 b=True c=False i=-3 big=2147483647 f1=1.000000e-05 f2=2.0 f3=1e-05 f4=1.0e6 f5=-3.5e6 s=zeros ' +
    'n=None e1=() e2=[] t=(1,2) t1=(-1) ft=(2.000000e+00,2.5) st=(a,b) cx=1.000000e+00+2.000000e+00j cxs=(1.0+2.0j,3.0-4.0j) ' +
    'pat=%x inf=inf ninf=-inf expr=[1,-1,int(size(@0,2))] $in=0 #0=(1,?,3)f32';
  const g = parsePnnxParam(`7767517\n2 1\npnnx.Input in 0 1 0\n${line.replace(' 0 1 0 ', ' 1 0 0 ')}\n`, 't');
  const p = g.nodes[1]!.params;
  assert.deepEqual(p.get('b'), { kind: 'bool', value: true });
  assert.deepEqual(p.get('c'), { kind: 'bool', value: false });
  assert.deepEqual(p.get('i'), { kind: 'int', value: -3 });
  assert.deepEqual(p.get('big'), { kind: 'int', value: 2147483647 });
  assert.deepEqual(p.get('f1'), { kind: 'float', value: 1e-5 });
  assert.deepEqual(p.get('f2'), { kind: 'float', value: 2 });
  assert.deepEqual(p.get('f3'), { kind: 'float', value: 1e-5 });
  assert.deepEqual(p.get('f4'), { kind: 'float', value: 1e6 });
  assert.deepEqual(p.get('f5'), { kind: 'float', value: -3.5e6 });
  assert.deepEqual(p.get('s'), { kind: 'string', value: 'zeros' });
  assert.deepEqual(p.get('n'), { kind: 'null' });
  assert.deepEqual(p.get('e1'), { kind: 'null' });
  assert.deepEqual(p.get('e2'), { kind: 'null' });
  assert.deepEqual(p.get('t'), { kind: 'ints', value: [1, 2] });
  assert.deepEqual(p.get('t1'), { kind: 'ints', value: [-1] });
  assert.deepEqual(p.get('ft'), { kind: 'floats', value: [2, 2.5] });
  assert.deepEqual(p.get('st'), { kind: 'strings', value: ['a', 'b'] });
  assert.deepEqual(p.get('cx'), { kind: 'complex', value: { re: 1, im: 2 } });
  assert.deepEqual(p.get('cxs'), { kind: 'complexes', value: [{ re: 1, im: 2 }, { re: 3, im: -4 }] });
  assert.deepEqual(p.get('pat'), { kind: 'string', value: '%x' });
  assert.deepEqual(p.get('inf'), { kind: 'float', value: Infinity });
  assert.deepEqual(p.get('ninf'), { kind: 'float', value: -Infinity });
  assert.deepEqual(p.get('expr'), { kind: 'string', value: '[1,-1,int(size(@0,2))]' });
  assert.deepEqual([...g.nodes[1]!.inputKeys], [['in', '0']]);
  assert.deepEqual(g.values.get('0')!.annotation, { shape: [1, -1, 3], dtype: 'f32' });
  // And they survive printing.
  const again = parsePnnxParam(printPnnxParam(g), 'again');
  assert.deepEqual(snapshot(again), snapshot(g));
});

test('dtype suffixes, including the old complex spellings', () => {
  const g = parsePnnxParam('7767517\n1 1\npnnx.Attribute a 0 1 x @d1=(2)f16 @d2=(2)bf16 @d3=(2)i64 @d4=(2)cp64 @d5=(2)c128 @d6=()null #x=(2)u8\n', 't');
  const w = g.nodes[0]!.weights;
  assert.deepEqual([...w.values()].map((x) => x.dtype), ['f16', 'bf16', 'i64', 'c64', 'c128', null]);
  assert.equal(g.values.get('x')!.dtype, 'u8');
});

test('CRLF line ends and blank lines are tolerated', () => {
  const g = parsePnnxParam(SPEC_EXAMPLE.replaceAll('\n', '\r\n').replace('\r\n5 4', '\r\n5 4\r\n'), 'crlf');
  assert.equal(g.nodes.length, 5);
});

test('print then parse gives the same graph for every .param under ../shared', { skip: SKIP_SHARED }, () => {
  const files = sharedParamFiles();
  assert.ok(files.length >= 20, `expected the shared models, found ${files.length} files`);
  for (const file of files) {
    const g = parsePnnxParam(readFileSync(file), file);
    const printed = printPnnxParam(g);
    const again = parsePnnxParam(printed, `${basename(file)} (printed)`);
    assert.deepEqual(snapshot(again), snapshot(g), file);
    // Printing is stable: a second round gives the same text.
    assert.equal(printPnnxParam(again), printed, file);
  }
});

// Each case: a file text, and the line, column and words the error must carry.
const HEADER = '7767517\n';
const INPUT = 'pnnx.Input in 0 1 0 #0=(1,3,4,4)f32';
const OUTPUT = 'pnnx.Output out 1 0 1';
const RELU = 'nn.ReLU r 1 1 0 1';
const ok3 = (mid: string) => `${HEADER}3 2\n${INPUT}\n${mid}\n${OUTPUT}\n`;

interface Malformed {
  name: string;
  text: string | Uint8Array;
  line: number;
  column: number;
  words: string[];
}

const MALFORMED: Malformed[] = [
  { name: 'empty file', text: '', line: 1, column: 1, words: ['empty file', '7767517'] },
  { name: 'wrong magic', text: '7767518\n1 1\n', line: 1, column: 1, words: ['wrong magic', "'7767518'"] },
  { name: 'ncnn-style text after magic', text: '7767517 x\n1 1\n', line: 1, column: 9, words: ['wrong magic', "'x'"] },
  { name: 'missing header line', text: '7767517\n', line: 2, column: 1, words: ['truncated file', 'operator count'] },
  { name: 'non-numeric operator count', text: '7767517\nx 1\n', line: 2, column: 1, words: ['bad count', "'x'"] },
  { name: 'missing operand count', text: '7767517\n1\n', line: 2, column: 2, words: ['truncated line', 'operand count'] },
  { name: 'fewer operators than declared', text: `${HEADER}4 2\n${INPUT}\n${RELU}\n${OUTPUT}\n`, line: 6, column: 1, words: ['truncated file', '4 operators'] },
  { name: 'more operators than declared', text: `${HEADER}2 2\n${INPUT}\n${RELU}\n${OUTPUT}\n`, line: 5, column: 1, words: ['too many operators', '2 operators'] },
  { name: 'wrong operand count', text: `${HEADER}3 5\n${INPUT}\n${RELU}\n${OUTPUT}\n`, line: 2, column: 3, words: ['wrong operand count', 'distinct operands'] },
  { name: 'truncated line (no counts)', text: ok3('nn.ReLU r'), line: 4, column: 10, words: ['truncated line', 'number of input operands'] },
  { name: 'truncated line (missing outputs)', text: ok3('nn.ReLU r 1 1 0'), line: 4, column: 16, words: ['truncated line', '1 output operands'] },
  { name: 'bad operand count', text: ok3('nn.ReLU r one 1 0 1'), line: 4, column: 11, words: ['bad count', "'one'"] },
  { name: 'unknown operand', text: ok3('nn.ReLU r 1 1 7 1'), line: 4, column: 15, words: ['unknown operand', "'7'"] },
  { name: 'operand produced twice', text: ok3('nn.ReLU r 1 1 0 0'), line: 4, column: 17, words: ['operand produced twice', '"in"', 'line 3'] },
  { name: 'duplicate operator names', text: ok3('nn.ReLU in 1 1 0 1'), line: 4, column: 9, words: ['duplicate operator name', "'in'", 'line 3'] },
  { name: 'bad tuple (unclosed)', text: ok3(`${RELU} k=(1,2`), line: 4, column: 25, words: ['bad tuple', "')'"] },
  { name: 'bad tuple (empty element)', text: ok3(`${RELU} k=(1,,2)`), line: 4, column: 24, words: ['bad tuple', 'between commas'] },
  { name: 'bad tuple (nested)', text: ok3(`${RELU} k=((1,2))`), line: 4, column: 22, words: ['bad tuple', 'do not nest'] },
  { name: 'bad tuple (numbers and words)', text: ok3(`${RELU} k=(1,a)`), line: 4, column: 22, words: ['bad tuple', 'mix of numbers and words'] },
  { name: 'bad number', text: ok3(`${RELU} eps=1.2.3`), line: 4, column: 23, words: ['bad number', "'1.2.3'"] },
  { name: 'bad number in a tuple', text: ok3(`${RELU} k=(3,4x)`), line: 4, column: 24, words: ['bad number', "'4x'"] },
  { name: 'parameter without =', text: ok3(`${RELU} inplace`), line: 4, column: 19, words: ['bad parameter', "'inplace'"] },
  { name: 'repeated key', text: ok3(`${RELU} a=1 a=2`), line: 4, column: 23, words: ['repeated key', "'a'"] },
  { name: 'bad attribute shape', text: ok3(`${RELU} @w=(3,x)f32`), line: 4, column: 25, words: ['bad shape', "'x'"] },
  { name: 'unknown dtype', text: ok3(`${RELU} @w=(3)f31`), line: 4, column: 25, words: ['bad dtype', "'f31'"] },
  { name: 'dynamic dim in a weight', text: ok3(`${RELU} @w=(?)f32`), line: 4, column: 23, words: ['bad shape', "'?'"] },
  { name: 'annotation of a foreign operand', text: ok3(`${RELU} #5=(1)f32`), line: 4, column: 20, words: ['bad shape annotation', "'5'"] },
  { name: 'input key naming a non-input', text: ok3(`${RELU} $input=1`), line: 4, column: 26, words: ['bad input key', "'1'"] },
  { name: 'conflicting annotations', text: ok3(`${RELU} #0=(1,3,5,4)f32`), line: 4, column: 22, words: ['conflicting shape annotation', '(1,3,4,4)', 'line 3'] },
  { name: 'ncnn numeric key', text: ok3(`${RELU} 0=16`), line: 4, column: 19, words: ['numeric parameter key', 'ncnn'] },
  { name: 'non-UTF-8 bytes', text: Uint8Array.from([...Buffer.from(`${HEADER}1 1\npnnx.Input a`), 0xff, 0xfe, ...Buffer.from(' 0 1 0\n')]), line: 3, column: 13, words: ['not UTF-8', '0xff'] },
];

for (const m of MALFORMED) {
  test(`malformed: ${m.name}`, () => {
    assert.throws(
      () => parsePnnxParam(m.text, 'bad.pnnx.param'),
      (e: unknown) => {
        assert.ok(e instanceof ParseError, `expected a ParseError, got ${String(e)}`);
        assert.equal(e.location.file, 'bad.pnnx.param');
        assert.equal(`${e.location.line}:${e.location.column}`, `${m.line}:${m.column}`, e.message);
        assert.ok(e.message.startsWith(`bad.pnnx.param:${m.line}:${m.column}: `), e.message);
        for (const w of m.words) assert.ok(e.message.includes(w), `"${w}" missing from: ${e.message}`);
        return true;
      },
    );
  });
}

test('errors show the line with a caret under the column', () => {
  try {
    parsePnnxParam(ok3(`${RELU} k=(1,,2)`), 'bad.pnnx.param');
    assert.fail('no error');
  } catch (e) {
    const lines = (e as Error).message.split('\n');
    assert.equal(lines[1], `  ${RELU} k=(1,,2)`);
    assert.equal(lines[2]!.indexOf('^'), 2 + 23);
  }
});
