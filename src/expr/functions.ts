// The vocabulary of pnnx.Expression: every function name PNNX can write into `expr`
// (pnnx-spec.md section 3.3), with its arity and the family that decides its typing.

/** Elementwise one-argument functions, as the torch functions of the same name. */
export const UNARY_FUNCTIONS = [
  'abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atanh', 'ceil', 'cos', 'cosh', 'erf', 'exp', 'expm1',
  'floor', 'log', 'log10', 'log1p', 'neg', 'reciprocal', 'round', 'rsqrt', 'sign', 'sin', 'sinh', 'sqrt',
  'square', 'tan', 'tanh', 'trunc',
] as const;
export type UnaryName = (typeof UNARY_FUNCTIONS)[number];

/** Unaries that keep an integer operand integer (PyTorch returns the input dtype); the rest give float. */
export const INT_KEEPING_UNARIES = ['abs', 'ceil', 'floor', 'neg', 'round', 'sign', 'square', 'trunc'] as const;
export type IntKeepingUnary = (typeof INT_KEEPING_UNARIES)[number];

/** Elementwise two-argument functions with broadcasting. */
export const BINARY_FUNCTIONS = [
  'add', 'sub', 'mul', 'div', 'floor_divide', 'remainder', 'fmod', 'pow', 'atan2', 'logaddexp',
  'max', 'maximum', 'min', 'minimum', 'and', 'or', 'xor', 'lshift', 'rshift',
] as const;
export type BinaryName = (typeof BINARY_FUNCTIONS)[number];

/** Binaries whose result is float whatever the operands (true division and transcendental ones). */
export const FLOAT_BINARIES = ['div', 'atan2', 'logaddexp'] as const;
/** Bitwise binaries: integer or bool operands only. */
export const BITWISE_BINARIES = ['and', 'or', 'xor', 'lshift', 'rshift'] as const;
/** Binaries PyTorch keeps bool when both operands are bool (add is logical or, mul logical and). */
export const BOOL_KEEPING_BINARIES = ['add', 'mul', 'max', 'maximum', 'min', 'minimum', 'and', 'or', 'xor'] as const;

/**
 * What a cast produces. Integer widths other than 32 wrap to their range and are stored as i32;
 * every floating dtype is computed as float32 (the engine's only float dtype).
 */
export type CastTarget = 'float' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool' | 'complex';

/** `int(x)` (from aten::Int) and the `torch.<dtype>` names `Tensor.to` can write. */
export const CAST_FUNCTIONS: Readonly<Record<string, CastTarget>> = {
  int: 'int32',
  'torch.float': 'float', 'torch.float32': 'float', 'torch.double': 'float', 'torch.float64': 'float',
  'torch.half': 'float', 'torch.float16': 'float', 'torch.bfloat16': 'float',
  'torch.long': 'int32', 'torch.int64': 'int32', 'torch.int': 'int32', 'torch.int32': 'int32',
  'torch.short': 'int16', 'torch.int16': 'int16', 'torch.int8': 'int8', 'torch.uint8': 'uint8',
  'torch.bool': 'bool',
  'torch.cfloat': 'complex', 'torch.complex64': 'complex', 'torch.cdouble': 'complex', 'torch.complex128': 'complex',
};

export type FunctionFamily = 'unary' | 'binary' | 'cast' | 'size';

export interface FunctionInfo {
  readonly name: string;
  readonly family: FunctionFamily;
  readonly minArgs: number;
  readonly maxArgs: number;
}

const TABLE = new Map<string, FunctionInfo>();
for (const name of UNARY_FUNCTIONS) TABLE.set(name, { name, family: 'unary', minArgs: 1, maxArgs: 1 });
for (const name of BINARY_FUNCTIONS) TABLE.set(name, { name, family: 'binary', minArgs: 2, maxArgs: 2 });
for (const name of Object.keys(CAST_FUNCTIONS)) TABLE.set(name, { name, family: 'cast', minArgs: 1, maxArgs: 1 });
// size(@i,d) is one dimension; size(@i) the whole shape as a list.
TABLE.set('size', { name: 'size', family: 'size', minArgs: 1, maxArgs: 2 });

/** Every function name the parser accepts. */
export const FUNCTION_NAMES: readonly string[] = [...TABLE.keys()];

export function lookupFunction(name: string): FunctionInfo | undefined {
  return TABLE.get(name);
}

export function includes<T extends string>(list: readonly T[], name: string): name is T {
  return (list as readonly string[]).includes(name);
}

/** The known name closest to `name` (for "did you mean"), if one is within two edits. */
export function closestFunction(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of FUNCTION_NAMES) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
