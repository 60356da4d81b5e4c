// The .pnnx.param reader (pnnx-spec.md §1): text in, graph IR out. Every malformation raises a ParseError
// naming file, line, column, the token found and what was expected.
//
//   line 1 : 7767517
//   line 2 : <operator count> <operand count>
//   then   : <type> <name> <n_in> <n_out> <inputs...> <outputs...> key=value @attr=(shape)dtype $key=operand #operand=(shape)dtype

import { ParseError } from '../../errors.ts';
import { Graph, type Annotation, type Value, type Weight } from '../../graph/graph.ts';
import type { Param } from '../../graph/param.ts';
import { parseDTypeSuffix } from '../../tensor/dtype.ts';
import { DYNAMIC, formatShape } from '../../tensor/shape.ts';
import { parseParamValue, ValueSyntaxError } from './param-value.ts';
import { decodeText, tokenizeLines, type TextLine, type Token } from './text-lines.ts';

export const PNNX_MAGIC = '7767517';

class LineReader {
  constructor(
    readonly file: string,
    readonly line: TextLine,
  ) {}

  fail(column: number, problem: string, found: string, expected: string): never {
    throw new ParseError({ file: this.file, line: this.line.number, column }, problem, found, expected, this.line.text);
  }

  /** The column just past the last token, for "the line ends here" errors. */
  get endColumn(): number {
    const last = this.line.tokens[this.line.tokens.length - 1];
    return last ? last.column + last.text.length : 1;
  }

  token(index: number, expected: string, problem = 'truncated line'): Token {
    const t = this.line.tokens[index];
    if (!t) this.fail(this.endColumn, problem, 'end of line', expected);
    return t;
  }

  count(index: number, what: string): number {
    const t = this.token(index, what);
    if (!/^\d+$/.test(t.text)) this.fail(t.column, 'bad count', `'${t.text}'`, what);
    return Number(t.text);
  }
}

/** `(1,3,?,224)f32` → shape and dtype; `allowDynamic` admits `?` (and pattern `%name`) dims. */
function parseShapeAndType(r: LineReader, text: string, column: number, allowDynamic: boolean): Annotation {
  const m = /^\(([^()]*)\)(.*)$/.exec(text);
  if (!m) r.fail(column, 'bad shape', `'${text}'`, "a shape such as (1,3,224,224) followed by a dtype such as f32");
  const dims = m[1]!.length ? m[1]!.split(',') : [];
  let offset = column + 1;
  const shape = dims.map((d) => {
    const at = offset;
    offset += d.length + 1;
    if (/^\d+$/.test(d)) return Number(d);
    if (allowDynamic && (d === '?' || /^%\w+$/.test(d))) return DYNAMIC;
    return r.fail(at, 'bad shape', `'${d}'`, allowDynamic ? "a non-negative integer or '?'" : 'a non-negative integer');
  });
  const dtype = parseDTypeSuffix(m[2]!);
  if (dtype === undefined) {
    r.fail(column + m[1]!.length + 2, 'bad dtype', `'${m[2]}'`, 'one of f32 f64 f16 bf16 i32 i64 i16 i8 u8 bool c64 c128 c32 null');
  }
  return { shape, dtype };
}

function mergeAnnotation(r: LineReader, column: number, value: Value, next: Annotation, firstLine: Map<Value, number>): void {
  const prev = value.annotation;
  if (!prev) {
    value.annotation = next;
    firstLine.set(value, r.line.number);
    if (next.dtype) value.dtype = next.dtype;
    return;
  }
  const agree = prev.shape.length === next.shape.length &&
    prev.shape.every((d, i) => d === next.shape[i] || d === DYNAMIC || next.shape[i] === DYNAMIC);
  if (!agree) {
    r.fail(column, 'conflicting shape annotation', formatShape(next.shape),
      `${formatShape(prev.shape)} as annotated for operand "${value.name}" on line ${firstLine.get(value)}`);
  }
  // Keep the more specific of the two.
  value.annotation = { shape: prev.shape.map((d, i) => (d === DYNAMIC ? next.shape[i]! : d)), dtype: prev.dtype ?? next.dtype };
}

/**
 * Parses a .pnnx.param text (a string, or bytes that must be UTF-8) into a graph.
 * `file` names the source in errors and in each node's `source`.
 */
export function parsePnnxParam(input: string | Uint8Array, file = '<string>'): Graph {
  const text = decodeText(input, file);
  const lines = tokenizeLines(text);
  const at = (line: TextLine) => new LineReader(file, line);

  const first = lines[0];
  if (!first || (lines.length === 1 && first.tokens.length === 0)) {
    throw new ParseError({ file, line: 1, column: 1 }, 'empty file', 'end of file', `the magic number ${PNNX_MAGIC}`);
  }
  const magic = first.tokens[0];
  if (!magic || magic.text !== PNNX_MAGIC || first.tokens.length > 1) {
    const bad = !magic || magic.text !== PNNX_MAGIC ? magic : first.tokens[1];
    at(first).fail(bad?.column ?? 1, 'wrong magic', bad ? `'${bad.text}'` : 'an empty line', `the magic number ${PNNX_MAGIC} alone on line 1 (a PNNX .param file)`);
  }

  const header = lines[1];
  if (!header) throw new ParseError({ file, line: 2, column: 1 }, 'truncated file', 'end of file', '<operator count> <operand count> on line 2');
  const hr = at(header);
  const operatorCount = hr.count(0, 'the operator count');
  const operandCount = hr.count(1, 'the operand count');
  if (header.tokens.length > 2) hr.fail(header.tokens[2]!.column, 'bad header', `'${header.tokens[2]!.text}'`, 'the end of line 2 after the two counts');

  const graph = new Graph(file);
  const nodeLine = new Map<string, number>();
  const producedOn = new Map<Value, number>();
  const annotatedOn = new Map<Value, number>();
  let operators = 0;

  for (const line of lines.slice(2)) {
    if (line.tokens.length === 0) continue;
    const r = at(line);
    if (operators === operatorCount) {
      r.fail(line.tokens[0]!.column, 'too many operators', `'${line.tokens[0]!.text}'`, `the end of the file: line 2 declares ${operatorCount} operators`);
    }
    operators++;
    parseOperatorLine(r, graph, nodeLine, producedOn, annotatedOn);
  }
  if (operators < operatorCount) {
    const last = lines[lines.length - 1]!;
    throw new ParseError({ file, line: last.number + 1, column: 1 }, 'truncated file', `end of file after ${operators} operators`, `${operatorCount} operators as line 2 declares`);
  }
  if (graph.values.size !== operandCount) {
    hr.fail(header.tokens[1]!.column, 'wrong operand count', String(operandCount), `${graph.values.size}, the number of distinct operands in the file`);
  }
  return graph;
}

function parseOperatorLine(
  r: LineReader,
  graph: Graph,
  nodeLine: Map<string, number>,
  producedOn: Map<Value, number>,
  annotatedOn: Map<Value, number>,
): void {
  const typeToken = r.token(0, 'an operator type');
  const nameToken = r.token(1, 'an operator name');
  const nIn = r.count(2, 'the number of input operands');
  const nOut = r.count(3, 'the number of output operands');
  if (graph.hasNode(nameToken.text)) {
    r.fail(nameToken.column, 'duplicate operator name', `'${nameToken.text}'`, `a name not used before (line ${nodeLine.get(nameToken.text)} uses it)`);
  }

  const inputs: Value[] = [];
  for (let i = 0; i < nIn; i++) {
    const t = r.token(4 + i, `${nIn} input operands (found ${i})`);
    const v = graph.values.get(t.text);
    if (!v || !v.producer) {
      r.fail(t.column, 'unknown operand', `'${t.text}'`, 'an operand produced on an earlier line');
    }
    inputs.push(v);
  }
  const outputs: Value[] = [];
  for (let i = 0; i < nOut; i++) {
    const t = r.token(4 + nIn + i, `${nOut} output operands (found ${i})`);
    const existing = graph.values.get(t.text);
    if (existing?.producer) {
      r.fail(t.column, 'operand produced twice', `'${t.text}'`,
        `a new operand name ("${t.text}" is already produced by "${existing.producer.name}" on line ${producedOn.get(existing)})`);
    }
    if (outputs.some((o) => o.name === t.text)) r.fail(t.column, 'operand produced twice', `'${t.text}'`, 'distinct output operands');
    outputs.push(graph.value(t.text));
  }

  const params = new Map<string, Param>();
  const weights = new Map<string, Weight>();
  const inputKeys = new Map<string, string>();
  const annotations: Array<[Value, Annotation, number]> = [];
  const seenKeys = new Set<string>();
  for (const t of r.line.tokens.slice(4 + nIn + nOut)) {
    const eq = t.text.indexOf('=');
    if (eq <= 0) r.fail(t.column, 'bad parameter', `'${t.text}'`, 'key=value, @attr=(shape)dtype, $key=operand or #operand=(shape)dtype');
    const key = t.text.slice(0, eq);
    const valueText = t.text.slice(eq + 1);
    const valueColumn = t.column + eq + 1;
    if (seenKeys.has(key)) r.fail(t.column, 'repeated key', `'${key}'`, 'each key once per line');
    seenKeys.add(key);
    const sigil = key[0];
    const bare = key.slice(1);
    if (sigil === '@') {
      weights.set(bare, parseShapeAndType(r, valueText, valueColumn, false));
    } else if (sigil === '$') {
      if (!inputs.some((v) => v.name === valueText)) {
        r.fail(valueColumn, 'bad input key', `'${valueText}'`, `one of this operator's input operands (${inputs.map((v) => v.name).join(', ') || 'none'})`);
      }
      inputKeys.set(bare, valueText);
    } else if (sigil === '#') {
      const v = inputs.find((x) => x.name === bare) ?? outputs.find((x) => x.name === bare);
      if (!v) r.fail(t.column + 1, 'bad shape annotation', `operand '${bare}'`, "one of this operator's input or output operands");
      annotations.push([v, parseShapeAndType(r, valueText, valueColumn, true), valueColumn]);
    } else {
      if (/^\d+$/.test(key)) r.fail(t.column, 'numeric parameter key', `'${key}'`, 'a named key (numeric keys mean an ncnn .param file, not PNNX)');
      try {
        params.set(key, parseParamValue(key, valueText));
      } catch (e) {
        if (!(e instanceof ValueSyntaxError)) throw e;
        r.fail(valueColumn + e.offset, e.problem, e.found, e.expected);
      }
    }
  }

  const node = graph.addNode({
    type: typeToken.text,
    name: nameToken.text,
    inputs,
    outputs,
    params,
    weights,
    inputKeys,
    source: { file: r.file, line: r.line.number },
  });
  nodeLine.set(node.name, r.line.number);
  for (const v of outputs) producedOn.set(v, r.line.number);
  for (const [v, a, column] of annotations) mergeAnnotation(r, column, v, a, annotatedOn);
}
