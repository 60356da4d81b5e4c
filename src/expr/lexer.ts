// Tokens of a pnnx.Expression, each with its [start, end) offsets.
// Numbers take every spelling PNNX has written over the years (pnnx-spec.md 1.3):
// `1.000000e-05`, `2.000000e+00`, `0.5`, `1e-05`, `1.0e6`, `1.000000e-5`, `-3.5e6`, `inf`, `-inf`, `nan`,
// and complex `2.000000e+00+3.000000e+00j`.

import { ExprError, quote } from './error.ts';

interface TokenBase {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export type PunctuationKind = '(' | ')' | '[' | ']' | ',';

export type Token =
  | (TokenBase & { readonly kind: 'name' | 'none' | 'true' | 'false' | PunctuationKind })
  | (TokenBase & { readonly kind: 'operand' | 'int' | 'float'; readonly value: number })
  | (TokenBase & { readonly kind: 'complex'; readonly re: number; readonly im: number });

export type TokenKind = Token['kind'];

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const KEYWORDS: Readonly<Record<string, 'none' | 'true' | 'false'>> = { None: 'none', True: 'true', False: 'false' };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isNameStart = (c: string | undefined): boolean => c !== undefined && /[A-Za-z_]/.test(c);
const isNameChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);
/** Characters that may follow a number or an operand. */
const isBoundary = (c: string | undefined): boolean => c === undefined || '()[], \t'.includes(c);

interface Real {
  readonly end: number;
  readonly value: number;
  readonly isFloat: boolean;
}

export function tokenize(text: string, file?: string): Token[] {
  const fail = (start: number, end: number, problem: string, found: string, expected: string): never => {
    throw new ExprError(text, start, end, problem, found, expected, file);
  };
  /** The run of characters up to the next boundary, for messages about a bad number. */
  const word = (start: number): string => {
    let end = start;
    while (!isBoundary(text[end])) end++;
    return text.slice(start, end);
  };

  /** `[+-]? (inf | nan | digits [. digits] [e [+-] digits] | . digits [e ...])`, or undefined if no number starts here. */
  const scanReal = (start: number): Real | undefined => {
    let j = start;
    if (text[j] === '-' || text[j] === '+') j++;
    const special = text.slice(j, j + 3);
    // `infj`/`nanj` end an imaginary part
    const after = text[j + 3] === 'j' ? text[j + 4] : text[j + 3];
    if ((special === 'inf' || special === 'nan') && !isNameChar(after)) {
      const value = special === 'nan' ? NaN : text[start] === '-' ? -Infinity : Infinity;
      return { end: j + 3, value, isFloat: true };
    }
    let digits = 0;
    while (isDigit(text[j])) (j++, digits++);
    let isFloat = false;
    if (text[j] === '.') {
      isFloat = true;
      j++;
      while (isDigit(text[j])) (j++, digits++);
    }
    if (digits === 0) return undefined;
    if (text[j] === 'e' || text[j] === 'E') {
      let k = j + 1;
      if (text[k] === '+' || text[k] === '-') k++;
      if (!isDigit(text[k])) fail(k, k + 1, 'bad number', `${quote(text[k])} in ${quote(word(start))}`, 'digits after the exponent');
      while (isDigit(text[k])) k++;
      j = k;
      isFloat = true;
    }
    return { end: j, value: Number(text.slice(start, j)), isFloat };
  };

  const scanNumber = (start: number): Token => {
    const real = scanReal(start);
    if (real === undefined) return fail(start, start + 1, 'bad number', quote(word(start) || text[start]), 'digits, inf or nan');
    let end = real.end;
    let token: Token;
    if (text[end] === 'j') {
      end++;
      token = { kind: 'complex', text: text.slice(start, end), start, end, re: 0, im: real.value };
    } else if (text[end] === '+' || text[end] === '-') {
      const imag = scanReal(end);
      if (imag === undefined || text[imag.end] !== 'j') {
        const at = imag?.end ?? end + 1;
        return fail(at, at + 1, 'bad complex number', `${quote(text[at])} in ${quote(word(start))}`, "an imaginary part ending in 'j', such as 2.0+3.0j");
      }
      end = imag.end + 1;
      token = { kind: 'complex', text: text.slice(start, end), start, end, re: real.value, im: imag.value };
    } else if (real.isFloat) {
      token = { kind: 'float', text: text.slice(start, end), start, end, value: real.value };
    } else {
      if (real.value < INT32_MIN || real.value > INT32_MAX) {
        fail(start, end, 'bad number', quote(text.slice(start, end)), 'an integer within 32 bits (PNNX clamps ints to int32)');
      }
      token = { kind: 'int', text: text.slice(start, end), start, end, value: real.value };
    }
    if (!isBoundary(text[end])) {
      fail(end, end + 1, 'bad number', `${quote(text[end])} in ${quote(word(start))}`, "a digit, '.', an exponent, ',', ')' or ']'");
    }
    return token;
  };

  const scanName = (start: number): Token => {
    let j = start;
    for (;;) {
      while (isNameChar(text[j])) j++;
      if (text[j] !== '.') break;
      if (!isNameStart(text[j + 1])) fail(j + 1, j + 2, 'bad name', quote(text[j + 1]), `a name part after '${text.slice(start, j + 1)}'`);
      j++;
    }
    const name = text.slice(start, j);
    if (name === 'inf' || name === 'nan') return scanNumber(start);
    const keyword = KEYWORDS[name];
    return { kind: keyword ?? 'name', text: name, start, end: j };
  };

  const scanOperand = (start: number): Token => {
    let j = start + 1;
    while (isDigit(text[j])) j++;
    if (j === start + 1) fail(j, j + 1, 'bad operand', quote(text[j]), "the digits of an input index after '@', such as @0");
    const value = Number(text.slice(start + 1, j));
    if (value > INT32_MAX) fail(start, j, 'bad operand', quote(text.slice(start, j)), 'an input index within 32 bits');
    if (!isBoundary(text[j])) fail(j, j + 1, 'bad operand', `${quote(text[j])} after ${quote(text.slice(start, j))}`, "',', ')' or ']'");
    return { kind: 'operand', text: text.slice(start, j), start, end: j, value };
  };

  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    let token: Token;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    } else if ('()[],'.includes(c)) {
      token = { kind: c as PunctuationKind, text: c, start: i, end: i + 1 };
    } else if (c === '@') {
      token = scanOperand(i);
    } else if (isDigit(c) || c === '.' || c === '-') {
      token = scanNumber(i);
    } else if (isNameStart(c)) {
      token = scanName(i);
    } else {
      token = fail(i, i + 1, 'unexpected character', quote(c), 'a function name, a number, @N, a bracket or a comma');
    }
    tokens.push(token);
    i = token.end;
  }
  return tokens;
}
