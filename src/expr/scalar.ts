// Per-element semantics of every function, written once as JavaScript source templates.
// The evaluator turns a template into a function (scalarFunction); the compiler pastes the same
// template into its fused loop. Helpers are called as `$name(...)` and are embedded in generated
// kernels through their source text, so each must be self-contained (no outside references, no
// named inner closures).
//
// Precision: a float operand is a float32 value held in a double. Every operation rounds its result to
// float32 (Math.fround), as a PyTorch float32 kernel stores it. +, -, *, /, sqrt, fmod, remainder and
// square are therefore exactly IEEE binary32 (a double result rounded once to float32 equals the
// correctly rounded float32 result for these operations); the other functions are the double-precision
// Math result rounded once, within 1 ulp of float32. PyTorch's vectorised kernels are themselves
// 1-3.5 ulp, so the last bit may differ from PyTorch. Integers are int32 and wrap like int32 arithmetic.

import { erf } from '../tensor/math.ts';
import type { BinaryName, CastTarget, IntKeepingUnary, UnaryName } from './functions.ts';

/** Round half to even (torch.round): 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x); // halves go up
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** torch.sign: 1, -1 or 0; NaN and -0 give 0, as ATen's `(0 < a) - (a < 0)`. */
export function sign(x: number): number {
  return (x > 0 ? 1 : 0) - (x < 0 ? 1 : 0);
}

/** Python's float floor division, as ATen's div_floor_floating computes it (exact for large quotients). */
export function floorDivideFloat(a: number, b: number): number {
  if (b === 0) return Math.fround(a / b);
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && b < 0 !== mod < 0) div -= 1;
  if (div === 0) return a / b < 0 || 1 / (a / b) < 0 ? -0 : 0; // copysign(0, a / b)
  let floored = Math.floor(div);
  if (div - floored > 0.5) floored += 1;
  return Math.fround(floored);
}

/** torch.remainder on floats: the result takes the sign of the divisor. */
export function remainderFloat(a: number, b: number): number {
  const mod = a % b;
  return mod !== 0 && b < 0 !== mod < 0 ? Math.fround(mod + b) : mod;
}

/** C pow: pow(1, y) = 1 and pow(-1, +-inf) = 1, where Math.pow gives NaN. */
export function powFloat(a: number, b: number): number {
  if (a === 1 || (a === -1 && (b === Infinity || b === -Infinity))) return 1;
  return Math.fround(Math.pow(a, b));
}

/** torch.logaddexp: log(e^a + e^b) without overflow. */
export function logaddexp(a: number, b: number): number {
  if (a === b && (a === Infinity || a === -Infinity)) return a;
  const m = Math.max(a, b);
  return Math.fround(m + Math.log1p(Math.exp(-Math.abs(a - b))));
}

/** Integer floor division; PyTorch raises ZeroDivisionError on a zero divisor, so do we. */
export function floorDivideInt(a: number, b: number): number {
  if (b === 0) throw new RangeError('integer division by zero');
  return Math.floor(a / b) | 0; // exact: an int32 quotient never rounds across an integer in double
}

/** Integer remainder with the sign of the divisor (Python %). */
export function remainderInt(a: number, b: number): number {
  if (b === 0) throw new RangeError('integer division by zero');
  const r = a % b;
  return (r !== 0 && r < 0 !== b < 0 ? r + b : r) | 0;
}

/** Integer fmod with the sign of the dividend (C %). */
export function fmodInt(a: number, b: number): number {
  if (b === 0) throw new RangeError('integer division by zero');
  return (a % b) | 0;
}

/** ATen powi: square-and-multiply with wrap-around; negative exponents give 0 except for bases 1 and -1. */
export function powInt(a: number, b: number): number {
  if (b < 0) return a === 1 ? 1 : a === -1 ? (b % 2 === 0 ? 1 : -1) : 0;
  let result = 1;
  let base = a;
  for (let e = b; e > 0; e >>>= 1) {
    if (e & 1) result = Math.imul(result, base);
    base = Math.imul(base, base);
  }
  return result;
}

/** ATen's << on int32: shifts outside 0..31 give 0. */
export function shiftLeft(a: number, b: number): number {
  return b < 0 || b > 31 ? 0 : a << b;
}

/** ATen's >> on int32: shifts outside 0..31 give the sign fill. */
export function shiftRight(a: number, b: number): number {
  return b < 0 || b > 31 ? a >> 31 : a >> b;
}

export const HELPERS = {
  erf, roundHalfEven, sign, floorDivideFloat, remainderFloat, powFloat, logaddexp,
  floorDivideInt, remainderInt, fmodInt, powInt, shiftLeft, shiftRight,
} as const;
export type HelperName = keyof typeof HELPERS;

/** Builds the source of one operation from the source of its operands. */
export type Template = (...operands: string[]) => string;

const fround = (code: string): Template => (x) => `Math.fround(${code.replace('#', () => x!)})`;
const math = (name: string): Template => fround(`Math.${name}(#)`);

/** Float operand(s) in, float32 result out. */
export const FLOAT_UNARY: Readonly<Record<UnaryName, Template>> = {
  abs: (x) => `Math.abs(${x})`,
  acos: math('acos'), acosh: math('acosh'), asin: math('asin'), asinh: math('asinh'), atan: math('atan'),
  atanh: math('atanh'), cos: math('cos'), cosh: math('cosh'), exp: math('exp'), expm1: math('expm1'),
  log: math('log'), log10: math('log10'), log1p: math('log1p'), sin: math('sin'), sinh: math('sinh'),
  sqrt: math('sqrt'), tan: math('tan'), tanh: math('tanh'),
  ceil: (x) => `Math.ceil(${x})`,
  floor: (x) => `Math.floor(${x})`,
  trunc: (x) => `Math.trunc(${x})`,
  round: (x) => `$roundHalfEven(${x})`,
  sign: (x) => `$sign(${x})`,
  neg: (x) => `(-${x})`,
  erf: fround('$erf(#)'),
  reciprocal: fround('1 / #'),
  rsqrt: fround('1 / Math.sqrt(#)'),
  square: (x) => `Math.fround(${x} * ${x})`,
};

/** Integer operand, int32 result (the unaries PyTorch keeps integer). */
export const INT_UNARY: Readonly<Record<IntKeepingUnary, Template>> = {
  abs: (x) => `(Math.abs(${x}) | 0)`,
  neg: (x) => `((-${x}) | 0)`,
  sign: (x) => `$sign(${x})`,
  square: (x) => `Math.imul(${x}, ${x})`,
  ceil: (x) => x!, floor: (x) => x!, round: (x) => x!, trunc: (x) => x!,
};

type ArithmeticName = Exclude<BinaryName, 'and' | 'or' | 'xor' | 'lshift' | 'rshift'>;

export const FLOAT_BINARY: Readonly<Record<ArithmeticName, Template>> = {
  add: (a, b) => `Math.fround(${a} + ${b})`,
  sub: (a, b) => `Math.fround(${a} - ${b})`,
  mul: (a, b) => `Math.fround(${a} * ${b})`,
  div: (a, b) => `Math.fround(${a} / ${b})`,
  floor_divide: (a, b) => `$floorDivideFloat(${a}, ${b})`,
  remainder: (a, b) => `$remainderFloat(${a}, ${b})`,
  fmod: (a, b) => `(${a} % ${b})`,
  pow: (a, b) => `$powFloat(${a}, ${b})`,
  atan2: (a, b) => `Math.fround(Math.atan2(${a}, ${b}))`,
  logaddexp: (a, b) => `$logaddexp(${a}, ${b})`,
  max: (a, b) => `Math.max(${a}, ${b})`,
  maximum: (a, b) => `Math.max(${a}, ${b})`,
  min: (a, b) => `Math.min(${a}, ${b})`,
  minimum: (a, b) => `Math.min(${a}, ${b})`,
};

export const INT_BINARY: Readonly<Record<Exclude<BinaryName, 'div' | 'atan2' | 'logaddexp'>, Template>> = {
  add: (a, b) => `((${a} + ${b}) | 0)`,
  sub: (a, b) => `((${a} - ${b}) | 0)`,
  mul: (a, b) => `Math.imul(${a}, ${b})`,
  floor_divide: (a, b) => `$floorDivideInt(${a}, ${b})`,
  remainder: (a, b) => `$remainderInt(${a}, ${b})`,
  fmod: (a, b) => `$fmodInt(${a}, ${b})`,
  pow: (a, b) => `$powInt(${a}, ${b})`,
  max: (a, b) => `Math.max(${a}, ${b})`,
  maximum: (a, b) => `Math.max(${a}, ${b})`,
  min: (a, b) => `Math.min(${a}, ${b})`,
  minimum: (a, b) => `Math.min(${a}, ${b})`,
  and: (a, b) => `(${a} & ${b})`,
  or: (a, b) => `(${a} | ${b})`,
  xor: (a, b) => `(${a} ^ ${b})`,
  lshift: (a, b) => `$shiftLeft(${a}, ${b})`,
  rshift: (a, b) => `$shiftRight(${a}, ${b})`,
};

/** bool op bool -> bool: add is logical or, mul logical and (PyTorch). Operands are 0 or 1. */
export const BOOL_BINARY: Readonly<Record<'add' | 'mul' | 'max' | 'maximum' | 'min' | 'minimum' | 'and' | 'or' | 'xor', Template>> = {
  add: (a, b) => `(${a} | ${b})`,
  mul: (a, b) => `(${a} & ${b})`,
  max: (a, b) => `(${a} | ${b})`,
  maximum: (a, b) => `(${a} | ${b})`,
  min: (a, b) => `(${a} & ${b})`,
  minimum: (a, b) => `(${a} & ${b})`,
  and: (a, b) => `(${a} & ${b})`,
  or: (a, b) => `(${a} | ${b})`,
  xor: (a, b) => `(${a} ^ ${b})`,
};

/**
 * Casts from any real value. To integers: truncate toward zero and wrap (NaN and +-inf give 0, where
 * PyTorch's result is undefined); narrower integers wrap to their width.
 */
export const CASTS: Readonly<Record<Exclude<CastTarget, 'complex'>, Template>> = {
  float: (x) => `Math.fround(${x})`,
  int32: (x) => `(${x} | 0)`,
  int16: (x) => `((${x} << 16) >> 16)`,
  int8: (x) => `((${x} << 24) >> 24)`,
  uint8: (x) => `(${x} & 255)`,
  bool: (x) => `(${x} !== 0 ? 1 : 0)`,
};

/** The helpers a piece of generated source calls. */
export function helpersUsed(source: string): HelperName[] {
  const names = new Set<HelperName>();
  for (const match of source.matchAll(/\$(\w+)\(/g)) {
    if (match[1]! in HELPERS) names.add(match[1] as HelperName);
  }
  return [...names];
}

/** `const $erf = (function erf(x) {...});` lines that make generated source self-contained. */
export function helperSource(names: readonly HelperName[]): string {
  return names.map((name) => `const $${name} = (${HELPERS[name].toString()});\n`).join('');
}

const functionCache = new Map<string, (...operands: number[]) => number>();

/** A template applied to parameters `a`, `b` and made callable (cached per source text). */
export function scalarFunction(template: Template, arity: number): (...operands: number[]) => number {
  const params = ['a', 'b'].slice(0, arity);
  const body = template(...params);
  let fn = functionCache.get(body);
  if (fn === undefined) {
    const names = Object.keys(HELPERS).map((name) => `$${name}`);
    const factory = new Function(...names, `"use strict"; return (${params.join(', ')}) => ${body};`);
    fn = factory(...Object.values(HELPERS)) as (...operands: number[]) => number;
    functionCache.set(body, fn);
  }
  return fn;
}
