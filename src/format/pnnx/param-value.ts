// Parameter values of a .pnnx.param line (`key=value`): typed from the text alone, as pnnx does
// (pnnx-spec.md §1.3), but strict: a malformed tuple or number is an error, not a silent guess.

import type { Complex, Param } from '../../graph/param.ts';

/** A problem at `offset` (0-based) inside the value text. */
export class ValueSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly problem: string,
    readonly found: string,
    readonly expected: string,
  ) {
    super(`${problem}: expected ${expected}, found ${found}`);
  }
}

const INT = /^-?\d+$/;
const FLOAT = /^-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?$/;
const NON_FINITE = /^(?:-?inf|nan)$/;
const COMPLEX = /^(-?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)([+-](?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)j$/;

/** `expr` holds an expression (which may look like a list); it is kept as raw text. */
export const RAW_TEXT_KEYS: ReadonlySet<string> = new Set(['expr']);

function looksNumeric(text: string): boolean {
  const c0 = text.charCodeAt(0);
  const isDigit = (c: number) => c >= 48 && c <= 57;
  return isDigit(c0) || (c0 === 45 /* - */ && text.length > 1 && isDigit(text.charCodeAt(1)));
}

type Scalar = { kind: 'int' | 'float'; value: number } | { kind: 'complex'; value: Complex } | { kind: 'string'; value: string };

function describe(text: string): string {
  return text.length === 0 ? 'nothing' : `'${text}'`;
}

/** One scalar (also one element of a tuple); `offset` places errors inside the whole value. */
function parseScalar(text: string, offset: number): Scalar {
  if (NON_FINITE.test(text)) return { kind: 'float', value: text === 'nan' ? NaN : text.startsWith('-') ? -Infinity : Infinity };
  if (!looksNumeric(text)) {
    if (text.length === 0) throw new ValueSyntaxError(offset, 'empty value', 'nothing', 'a value');
    return { kind: 'string', value: text };
  }
  if (INT.test(text)) {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw new ValueSyntaxError(offset, 'bad number', describe(text), 'an integer of at most 53 bits');
    return { kind: 'int', value };
  }
  if (FLOAT.test(text)) return { kind: 'float', value: Number(text) };
  const complex = COMPLEX.exec(text);
  if (complex) return { kind: 'complex', value: { re: Number(complex[1]), im: Number(complex[2]) } };
  throw new ValueSyntaxError(offset, 'bad number', describe(text), 'an integer, a float such as 1.5e-05, or a complex such as 1.0+2.0j');
}

function parseArray(text: string): Param {
  const open = text[0]!;
  const close = open === '(' ? ')' : ']';
  if (text[text.length - 1] !== close) {
    throw new ValueSyntaxError(text.length, 'bad tuple', 'end of value', `'${close}' closing the '${open}'`);
  }
  const inner = text.slice(1, -1);
  const nested = inner.search(/[()[\]]/);
  if (nested >= 0) throw new ValueSyntaxError(nested + 1, 'bad tuple', `'${inner[nested]}'`, "',' or a value (tuples do not nest)");
  const items: Scalar[] = [];
  let offset = 1;
  for (const part of inner.split(',')) {
    if (part.length === 0) throw new ValueSyntaxError(offset, 'bad tuple', describe(part), 'a value between commas');
    items.push(parseScalar(part, offset));
    offset += part.length + 1;
  }
  const kinds = new Set(items.map((i) => i.kind));
  if (kinds.has('string')) {
    if (kinds.size > 1) throw new ValueSyntaxError(1, 'bad tuple', `a mix of numbers and words in ${text}`, 'numbers only or words only');
    return { kind: 'strings', value: items.map((i) => i.value as string) };
  }
  if (kinds.has('complex')) {
    const value = items.map((i) => (i.kind === 'complex' ? i.value : { re: i.value as number, im: 0 }));
    return { kind: 'complexes', value };
  }
  const value = items.map((i) => i.value as number);
  return kinds.has('float') ? { kind: 'floats', value } : { kind: 'ints', value };
}

/** Parses the text after `key=`. */
export function parseParamValue(key: string, text: string): Param {
  if (RAW_TEXT_KEYS.has(key)) {
    if (text.length === 0) throw new ValueSyntaxError(0, 'empty value', 'nothing', 'an expression');
    return { kind: 'string', value: text };
  }
  if (text.includes('%')) return { kind: 'string', value: text };
  if (text === 'None' || text === '()' || text === '[]') return { kind: 'null' };
  if (text === 'True' || text === 'False') return { kind: 'bool', value: text === 'True' };
  if (text.startsWith('(') || text.startsWith('[')) return parseArray(text);
  const s = parseScalar(text, 0);
  switch (s.kind) {
    case 'int': case 'float': return { kind: s.kind, value: s.value };
    case 'complex': return { kind: 'complex', value: s.value };
    case 'string': return { kind: 'string', value: s.value };
  }
}

/** A float that reads back as a float: `2.0`, `1e-05`, `0.5`. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const s = String(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function formatComplex(c: Complex): string {
  const im = formatFloat(c.im);
  return `${formatFloat(c.re)}${im.startsWith('-') ? im : `+${im}`}j`;
}

/** The text after `key=` for a param, such that parseParamValue reads back the same param. */
export function formatParamValue(p: Param): string {
  switch (p.kind) {
    case 'null': return 'None';
    case 'bool': return p.value ? 'True' : 'False';
    case 'int': return String(p.value);
    case 'float': return formatFloat(p.value);
    case 'string': return p.value;
    case 'ints': return p.value.length ? `(${p.value.join(',')})` : 'None';
    case 'floats': return p.value.length ? `(${p.value.map(formatFloat).join(',')})` : 'None';
    case 'strings': return p.value.length ? `(${p.value.join(',')})` : 'None';
    case 'complex': return formatComplex(p.value);
    case 'complexes': return p.value.length ? `(${p.value.map(formatComplex).join(',')})` : 'None';
  }
}
