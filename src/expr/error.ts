// Errors about one expression: what was found, what was expected, and a caret under the column.

import { ParseError } from '../errors.ts';
import type { Span } from './ast.ts';

/**
 * A malformed or ill-typed pnnx.Expression. The message reads
 * `<expr>:1:5: unknown function: expected a known function (did you mean 'sqrt'?), found 'sqr'`
 * followed by the expression and a caret. `start`/`end` are 0-based offsets into `expr`;
 * a graph loader can re-anchor them inside its own file and line.
 */
export class ExprError extends ParseError {
  override name = 'ExprError';
  constructor(
    readonly expr: string,
    readonly start: number,
    readonly end: number,
    problem: string,
    found: string,
    expected: string,
    file = '<expr>',
  ) {
    super({ file, line: 1, column: start + 1 }, problem, found, expected, expr);
  }
}

/** Raises an ExprError about `span` of `text`; typed `never` so callers can use it in expressions. */
export type Fail = (problem: string, found: string, expected: string) => never;

export function failAt(text: string, span: Span | undefined, file?: string): Fail {
  return (problem, found, expected) => {
    throw new ExprError(text, span?.start ?? 0, span?.end ?? text.length, problem, found, expected, file);
  };
}

/** `'x'` for a piece of source, or `end of text`. */
export function quote(text: string | undefined): string {
  return text === undefined || text === '' ? 'end of text' : `'${text}'`;
}
