// Turning the bytes of a text file into lines of whitespace-separated tokens with 1-based columns,
// so that every later error can point at the exact token.

import { ParseError } from '../../errors.ts';

export interface Token {
  readonly text: string;
  /** 1-based column of the token's first character. */
  readonly column: number;
}

export interface TextLine {
  /** 1-based line number. */
  readonly number: number;
  readonly text: string;
  readonly tokens: readonly Token[];
}

/** Byte offset of the first byte that is not part of valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) { i++; continue; }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    if (i + need >= bytes.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Decodes UTF-8 strictly; invalid bytes raise a ParseError at their line and column. */
export function decodeText(input: string | Uint8Array, file: string): string {
  if (typeof input === 'string') return input;
  const bad = firstInvalidUtf8(input);
  if (bad >= 0) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < bad; i++) if (input[i] === 0x0a) { line++; lineStart = i + 1; }
    const column = new TextDecoder().decode(input.subarray(lineStart, bad)).length + 1;
    const hex = `0x${input[bad]!.toString(16).padStart(2, '0')}`;
    throw new ParseError({ file, line, column }, 'not UTF-8 text', `byte ${hex}`, 'UTF-8 text (a .pnnx.param file is plain text)');
  }
  return new TextDecoder().decode(input);
}

/** Splits text into lines (`\n` or `\r\n`) of whitespace-separated tokens. */
export function tokenizeLines(text: string): TextLine[] {
  const lines = text.split('\n');
  // A final newline does not start another line.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((raw, i) => {
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const tokens: Token[] = [];
    for (const m of body.matchAll(/\S+/g)) tokens.push({ text: m[0], column: m.index! + 1 });
    return { number: i + 1, text: body, tokens };
  });
}
