// Typing and broadcasting, shared by the evaluator, the shape rule and the compiler.
//
// Values are bool, int (int32) or float (float32). Result kinds follow PyTorch's tensor type promotion:
// - any float operand makes the result float; int operands are rounded to float32 first;
// - div, atan2, logaddexp and the transcendental unaries always give float;
// - add sub mul floor_divide remainder fmod pow max min keep int∘int int (PyTorch tensors: 7 ** 2 = 49,
//   int, and negative integer exponents give 0 except for bases 1 and -1, as ATen's powi);
// - bool∘bool stays bool for add (or), mul (and), max/min and and/or/xor; other arithmetic
//   treats bools as 0/1 ints (PyTorch refuses sub/neg on bools instead);
// - bitwise ops refuse float operands, as PyTorch does.

import type { CallNode } from './ast.ts';
import type { Fail } from './error.ts';
import {
  BITWISE_BINARIES, BOOL_KEEPING_BINARIES, CAST_FUNCTIONS, FLOAT_BINARIES, includes, INT_KEEPING_UNARIES,
  lookupFunction, type BinaryName, type UnaryName,
} from './functions.ts';
import { BOOL_BINARY, CASTS, FLOAT_BINARY, FLOAT_UNARY, INT_BINARY, INT_UNARY, type Template } from './scalar.ts';
import type { DType } from '../tensor/dtype.ts';
import { DYNAMIC, formatShape, type Shape } from '../tensor/shape.ts';

export type Kind = 'bool' | 'int' | 'float';
export type ResultDType = 'bool' | 'i32' | 'f32';

export const KIND_DTYPE: Readonly<Record<Kind, ResultDType>> = { bool: 'bool', int: 'i32', float: 'f32' };

/** How the evaluator reads an input dtype; undefined for complex dtypes, which it cannot compute. */
export function kindOfDType(dtype: DType): Kind | undefined {
  switch (dtype) {
    case 'f32': case 'f64': case 'f16': case 'bf16': return 'float';
    case 'i32': case 'i64': case 'i16': case 'i8': case 'u8': return 'int';
    case 'bool': return 'bool';
    default: return undefined;
  }
}

/** A call's result kind and the per-element template (operand conversions included). */
export interface OpPlan {
  readonly kind: Kind;
  readonly arity: number;
  readonly template: Template;
}

const toFloat = (kind: Kind, x: string): string => (kind === 'float' ? x : `Math.fround(${x})`);

/** Types one call given its argument kinds; size() is handled by the callers (it reads a shape). */
export function planCall(node: CallNode, argKinds: readonly Kind[], fail: Fail): OpPlan {
  const family = lookupFunction(node.fn)!.family;
  if (family === 'cast') {
    const target = CAST_FUNCTIONS[node.fn]!;
    if (target === 'complex') fail('unsupported cast', node.fn, 'a real dtype (the engine computes no complex values)');
    const kind: Kind = target === 'float' ? 'float' : target === 'bool' ? 'bool' : 'int';
    return { kind, arity: 1, template: CASTS[target as Exclude<typeof target, 'complex'>] };
  }
  if (family === 'unary') {
    const fn = node.fn as UnaryName;
    const k = argKinds[0]!;
    if (k !== 'float' && includes(INT_KEEPING_UNARIES, fn)) return { kind: 'int', arity: 1, template: INT_UNARY[fn] };
    return { kind: 'float', arity: 1, template: (x) => FLOAT_UNARY[fn](toFloat(k, x!)) };
  }
  const fn = node.fn as BinaryName;
  const [ka, kb] = argKinds as [Kind, Kind];
  if (includes(BITWISE_BINARIES, fn)) {
    if (ka === 'float' || kb === 'float') {
      fail('bad operand type', `${ka} and ${kb} operands`, `integer or bool operands for ${fn} (PyTorch has no bitwise ops on floats)`);
    }
  }
  if (ka === 'bool' && kb === 'bool' && includes(BOOL_KEEPING_BINARIES, fn)) {
    return { kind: 'bool', arity: 2, template: BOOL_BINARY[fn] };
  }
  if (ka === 'float' || kb === 'float' || includes(FLOAT_BINARIES, fn)) {
    const template = FLOAT_BINARY[fn as keyof typeof FLOAT_BINARY];
    return { kind: 'float', arity: 2, template: (a, b) => template(toFloat(ka, a!), toFloat(kb, b!)) };
  }
  return { kind: 'int', arity: 2, template: INT_BINARY[fn as keyof typeof INT_BINARY] };
}

/**
 * NumPy broadcasting from the right, naming both shapes when they clash. A DYNAMIC (`?`) dim takes the
 * other side's size when that is known and not 1 (the only size that would broadcast).
 */
export function broadcastPair(a: Shape, b: Shape, fn: string, fail: Fail): number[] {
  const rank = Math.max(a.length, b.length);
  const out = new Array<number>(rank);
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x === y || y === 1) out[i] = x;
    else if (x === 1) out[i] = y;
    else if (x === DYNAMIC) out[i] = y;
    else if (y === DYNAMIC) out[i] = x;
    else fail(`shapes do not broadcast in ${fn}`, `${formatShape(a)} and ${formatShape(b)}`, 'dimensions that are equal or 1, aligned from the right');
  }
  return out;
}

/** `size(@i,d)` with d counted from the end when negative. */
export function resolveDim(d: number, rank: number, fail: Fail): number {
  const axis = d < 0 ? d + rank : d;
  if (axis < 0 || axis >= rank) {
    fail('dimension out of range', `${d}`, rank === 0 ? 'a tensor with dimensions (this operand is 0-d)' : `a dimension from ${-rank} to ${rank - 1} of a ${rank}-d operand`);
  }
  return axis;
}
