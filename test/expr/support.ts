// Shared by the expression tests: fast-check arbitraries for trees and broadcastable shapes, seeded data,
// and a per-element reference written independently of src/expr (plain Math on doubles, then fround).

import fc from 'fast-check';
import {
  BINARY_FUNCTIONS, CAST_FUNCTIONS, UNARY_FUNCTIONS, bool, call, complex, float, int, list, none, operand,
  type Expr,
} from '../../src/expr/index.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

// ---------------------------------------------------------------- any tree (printer/parser round trip)

const leaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 31 - 1 }).map(operand),
  fc.integer().map(int),
  fc.double().map(float),
  fc.tuple(fc.double(), fc.double()).map(([re, im]) => complex(re, im)),
  fc.boolean().map(bool),
  fc.constant(none()),
);

const sizeCall: fc.Arbitrary<Expr> = fc.oneof(
  fc.tuple(fc.nat(9), fc.integer({ min: -4, max: 3 })).map(([i, d]) => call('size', operand(i), int(d))),
  fc.nat(9).map((i) => call('size', operand(i))),
);

/** Any tree the parser accepts: every function with its arity, lists, every literal kind. */
export const anyExpr: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 6, depthSize: 'small' },
    leaf,
    sizeCall,
    fc.tuple(fc.constantFrom(...UNARY_FUNCTIONS, ...Object.keys(CAST_FUNCTIONS)), tie('expr')).map(([fn, a]) => call(fn, a)),
    fc.tuple(fc.constantFrom(...BINARY_FUNCTIONS), tie('expr'), tie('expr')).map(([fn, a, b]) => call(fn, a, b)),
    fc.array(tie('expr'), { maxLength: 4 }).map((items) => list(...items)),
  ),
})).expr;

// ---------------------------------------------------------------- float expressions over shapes

/** An output shape and input shapes that broadcast to it: size-1 dims, missing leading dims, batch > 1. */
export const broadcastCase: fc.Arbitrary<{ out: number[]; inputs: number[][] }> = fc
  .integer({ min: 0, max: 4 })
  .chain((rank) => fc.array(fc.constantFrom(1, 2, 3, 4, 5, 7), { minLength: rank, maxLength: rank }))
  .chain((out) => {
    // mostly full rank, sometimes fewer leading dims; each dim kept or set to 1
    const rank = fc.oneof(fc.constant(out.length), fc.nat(out.length));
    const input = rank.chain((r) =>
      fc.array(fc.boolean(), { minLength: r, maxLength: r }).map((ones) =>
        out.slice(out.length - r).map((d, i) => (ones[i] ? 1 : d))));
    return fc.array(input, { minLength: 1, maxLength: 4 }).map((inputs) => ({ out, inputs }));
  });

const FLOAT_BINARY_NAMES = BINARY_FUNCTIONS.filter((fn) => !['and', 'or', 'xor', 'lshift', 'rshift'].includes(fn));

/**
 * A float-valued expression over inputs of the given shapes. Integer values enter only as leaves
 * (int literals, size()) combined with floats, or as torch.float(int(x)), so every result is float.
 */
export function floatExpr(shapes: readonly number[][]): fc.Arbitrary<Expr> {
  const operandLeaf = fc.nat(shapes.length - 1).map(operand);
  const floatLiteral = fc.constantFrom(0.5, 2, -1.5, 3.25, 1e-3, -0.0, 12).map(float);
  const sizeable = shapes.map((s, i) => [s, i] as const).filter(([s]) => s.length > 0);
  const intLeaf = sizeable.length === 0
    ? fc.integer({ min: -3, max: 5 }).map(int)
    : fc.oneof(
      fc.integer({ min: -3, max: 5 }).map(int),
      fc.constantFrom(...sizeable).chain(([s, i]) => fc.integer({ min: -s.length, max: s.length - 1 }).map((d) => call('size', operand(i), int(d)))),
    );
  return fc.letrec<{ f: Expr; any: Expr }>((tie) => ({
    f: fc.oneof(
      { maxDepth: 6 },
      operandLeaf,
      floatLiteral,
      { arbitrary: fc.tuple(fc.constantFrom(...UNARY_FUNCTIONS), tie('f')).map(([fn, a]) => call(fn, a)), weight: 2 },
      {
        arbitrary: fc.tuple(fc.constantFrom(...FLOAT_BINARY_NAMES), tie('f'), tie('any'), fc.boolean())
          .map(([fn, a, b, swap]) => (swap ? call(fn, b, a) : call(fn, a, b))),
        weight: 4,
      },
      tie('f').map((a) => call('torch.float', call('int', a))),
    ),
    any: fc.oneof({ arbitrary: tie('f'), weight: 3 }, intLeaf),
  })).f;
}

/** A small deterministic generator (mulberry32) so big tensors need no big arbitraries. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SPECIAL = [0, -0, 0.5, -0.5, 1.5, 2.5, -2.5, 1, -1, 3, -3, 7, 0.1, 100];

/** Random float32 data mixing special values (halves, signed zeros) with uniform values in [-8, 8). */
export function randomTensor(shape: readonly number[], seed: number): Tensor {
  const next = rng(seed);
  const t = Tensor.zeros(shape, 'f32');
  const data = t.f32;
  for (let i = 0; i < data.length; i++) {
    data[i] = next() < 0.3 ? SPECIAL[Math.floor(next() * SPECIAL.length)]! : next() * 16 - 8;
  }
  return t;
}

/** Same value, sign of zero included (it shows through a later division); NaN equals NaN. */
export const sameNumber = (a: number, b: number): boolean => Object.is(a, b);

// ---------------------------------------------------------------- the independent reference

interface RefValue {
  readonly v: number;
  readonly isInt: boolean;
}

/**
 * The value of `expr` at output element `index` (a multi-index into `outShape`), computed per element
 * by recursion. Only what floatExpr generates is covered (a float operand in every binary call).
 */
export function referenceAt(expr: Expr, inputs: readonly Tensor[], outShape: readonly number[], index: readonly number[]): number {
  const at = (node: Expr): RefValue => {
    switch (node.kind) {
      case 'operand': {
        const t = inputs[node.index]!;
        const lead = outShape.length - t.shape.length;
        let flat = 0;
        for (let d = 0; d < t.shape.length; d++) flat = flat * t.shape[d]! + (t.shape[d] === 1 ? 0 : index[d + lead]!);
        return { v: (t.data as Float32Array)[flat]!, isInt: false };
      }
      case 'int': return { v: node.value, isInt: true };
      case 'float': return { v: Math.fround(node.value), isInt: false };
      case 'call': {
        if (node.fn === 'size') {
          const t = inputs[(node.args[0] as { index: number }).index]!;
          const d = (node.args[1] as { value: number }).value;
          return { v: t.shape[d < 0 ? d + t.shape.length : d]!, isInt: true };
        }
        const args = node.args.map(at);
        if (node.fn === 'int') return { v: args[0]!.v | 0, isInt: true };
        if (node.fn === 'torch.float') return { v: Math.fround(args[0]!.v), isInt: false };
        const xs = args.map((a) => (a.isInt ? Math.fround(a.v) : a.v));
        if (args.length === 1) return { v: Math.fround(unary(node.fn, xs[0]!)), isInt: false };
        if (args[0]!.isInt && args[1]!.isInt) throw new Error('reference: int op int not covered');
        return { v: Math.fround(binary(node.fn, xs[0]!, xs[1]!)), isInt: false };
      }
      default: throw new Error(`reference: ${node.kind} not covered`);
    }
  };
  return at(expr).v;
}

function unary(fn: string, x: number): number {
  switch (fn) {
    case 'neg': return -x;
    case 'reciprocal': return 1 / x;
    case 'rsqrt': return 1 / Math.sqrt(x);
    case 'square': return x * x;
    case 'sign': return x > 0 ? 1 : x < 0 ? -1 : 0;
    case 'erf': return referenceErf(x);
    case 'round': {
      // half to even: Math.round sends halves up; step back when that lands on an odd number
      const r = Math.round(x);
      return Math.abs(x % 1) === 0.5 && Math.abs(r % 2) === 1 ? r - 1 : r;
    }
    default: return (Math as unknown as Record<string, (v: number) => number>)[fn]!(x);
  }
}

function binary(fn: string, a: number, b: number): number {
  switch (fn) {
    case 'add': return a + b;
    case 'sub': return a - b;
    case 'mul': return a * b;
    case 'div': return a / b;
    case 'fmod': return a % b; // JavaScript's % is C fmod
    case 'remainder': {
      const r = a % b;
      return r !== 0 && Math.sign(r) !== Math.sign(b) ? r + b : r;
    }
    case 'floor_divide': {
      // CPython's float floor division (float_floor_div), which ATen follows
      if (b === 0) return a / b;
      const mod = a % b;
      let q = (a - mod) / b;
      if (mod !== 0 && Math.sign(mod) !== Math.sign(b)) q -= 1;
      if (q === 0) return a / b < 0 || Object.is(a / b, -0) ? -0 : 0; // copysign(0, a / b)
      const f = Math.floor(q);
      return q - f > 0.5 ? f + 1 : f;
    }
    case 'pow':
      if (a === 1 || (a === -1 && !Number.isFinite(b) && !Number.isNaN(b))) return 1; // C pow special cases
      return a ** b;
    case 'atan2': return Math.atan2(a, b);
    case 'logaddexp':
      if (a === b && !Number.isFinite(a)) return a;
      return Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    case 'max': case 'maximum': return Math.max(a, b); // NaN propagates, as in torch.maximum
    case 'min': case 'minimum': return Math.min(a, b);
    default: throw new Error(`reference: ${fn} not covered`);
  }
}

/**
 * erf by its series erf(x) = 2/sqrt(pi) e^(-x^2) sum_n (2x^2)^n x / (1*3*...*(2n+1)),
 * whose terms are all positive (no cancellation); erf(x) rounds to +-1 in float32 beyond |x| = 6.
 */
export function referenceErf(x: number): number {
  if (Number.isNaN(x)) return x;
  if (Math.abs(x) >= 6) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 400 && Math.abs(term) > Math.abs(sum) * 1e-18; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
}

/** Every multi-index of `shape`, row-major. */
export function* indices(shape: readonly number[]): Generator<number[]> {
  const n = shape.reduce((a, b) => a * b, 1);
  for (let flat = 0; flat < n; flat++) {
    const index = new Array<number>(shape.length);
    let rest = flat;
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d] = rest % shape[d]!;
      rest = Math.floor(rest / shape[d]!);
    }
    yield index;
  }
}
