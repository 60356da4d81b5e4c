// pnnx.Expression: the expression is parsed by src/expr and typed by its shape rule (analyseExpression),
// then written as one ONNX node per function, in reverse-Polish order. Operands broadcast as in PyTorch,
// which is ONNX's multidirectional broadcasting too. Scalars (literals, and anything the shape rule folds
// such as size(@0,2)) become 0-d initializers of the dtype the function computes in: float32 for float
// functions, int32 for integer ones (the evaluator's int kind), so both operands of an ONNX op agree.
//
// Functions without an ONNX operator of the same meaning are written as PyTorch defines them (square,
// rsqrt, log10, log1p, expm1, trunc, floor_divide, remainder on floats); atan2, logaddexp, the bitwise
// and shift functions, narrowing integer casts and bool arithmetic have none and fail the export.

import { analyseExpression, parseExpression, type Expr, type ValueInfo } from '../../../expr/index.ts';
import { CAST_FUNCTIONS } from '../../../expr/functions.ts';
import type { Kind } from '../../../expr/semantics.ts';
import { attr, type OnnxGraphBuilder } from '../builder.ts';
import type { ExportFamily, NodeContext } from '../context.ts';
import { onnx } from '../proto.ts';

const T = onnx.TensorProto.DataType;

/** A value on the evaluation stack: a tensor by name, or a scalar not yet written. */
type Item =
  | { readonly kind: Kind; readonly name: string; readonly dtype: string }
  | { readonly kind: Kind; readonly constant: number };

type Args = readonly string[];
type Write = (b: OnnxGraphBuilder, args: Args, base: string, out?: string) => string;

const one = (opType: string, attrs = {}): Write => (b, a, base, out) => b.op(opType, a, attrs, base, out);

const FLOAT_UNARY: Readonly<Record<string, Write>> = {
  ...Object.fromEntries(([
    ['abs', 'Abs'], ['acos', 'Acos'], ['acosh', 'Acosh'], ['asin', 'Asin'], ['asinh', 'Asinh'], ['atan', 'Atan'],
    ['atanh', 'Atanh'], ['ceil', 'Ceil'], ['cos', 'Cos'], ['cosh', 'Cosh'], ['erf', 'Erf'], ['exp', 'Exp'],
    ['floor', 'Floor'], ['log', 'Log'], ['neg', 'Neg'], ['reciprocal', 'Reciprocal'], ['round', 'Round'],
    ['sign', 'Sign'], ['sin', 'Sin'], ['sinh', 'Sinh'], ['sqrt', 'Sqrt'], ['tan', 'Tan'], ['tanh', 'Tanh'],
  ] as const).map(([fn, op]) => [fn, one(op)])),
  square: (b, [x], base, out) => b.op('Mul', [x!, x!], {}, base, out),
  rsqrt: (b, [x], base, out) => b.op('Reciprocal', [b.op('Sqrt', [x!], {}, base)], {}, base, out),
  log10: (b, [x], base, out) => b.op('Mul', [b.op('Log', [x!], {}, base), b.scalar(Math.LOG10E)], {}, base, out),
  log1p: (b, [x], base, out) => b.op('Log', [b.op('Add', [x!, b.scalar(1)], {}, base)], {}, base, out),
  expm1: (b, [x], base, out) => b.op('Sub', [b.op('Exp', [x!], {}, base), b.scalar(1)], {}, base, out),
  trunc: (b, [x], base, out) => b.op('Where', [b.op('Less', [x!, b.scalar(0)], {}, base), b.op('Ceil', [x!], {}, base), b.op('Floor', [x!], {}, base)], {}, base, out),
};

const floorDivide = (b: OnnxGraphBuilder, [x, y]: Args, base: string, out?: string) => b.op('Floor', [b.op('Div', [x!, y!], {}, base)], {}, base, out);

const FLOAT_BINARY: Readonly<Record<string, Write>> = {
  add: one('Add'), sub: one('Sub'), mul: one('Mul'), div: one('Div'), pow: one('Pow'),
  max: one('Max'), maximum: one('Max'), min: one('Min'), minimum: one('Min'),
  // C fmod: the sign of the dividend (float Mod requires fmod=1).
  fmod: one('Mod', { fmod: attr.int(1) }),
  floor_divide: floorDivide,
  // Python's modulo, the sign of the divisor: a - floor(a / b) * b.
  remainder: (b, [x, y], base, out) => b.op('Sub', [x!, b.op('Mul', [floorDivide(b, [x!, y!], base), y!], {}, base)], {}, base, out),
};

/** int32 functions whose ONNX operator wraps and rounds as the evaluator's int32 arithmetic does. */
const INT_FUNCTIONS: Readonly<Record<string, Write>> = {
  add: one('Add'), sub: one('Sub'), mul: one('Mul'), max: one('Max'), maximum: one('Max'), min: one('Min'), minimum: one('Min'),
  neg: one('Neg'), abs: one('Abs'), sign: one('Sign'),
  square: (b, [x], base, out) => b.op('Mul', [x!, x!], {}, base, out),
  ceil: one('Identity'), floor: one('Identity'), round: one('Identity'), trunc: one('Identity'),
  fmod: one('Mod', { fmod: attr.int(1) }),
  remainder: one('Mod', { fmod: attr.int(0) }),
};

/** Casts with the same meaning in ONNX: to float32, to int32 (truncation toward zero), to bool (x != 0). */
const CAST_TARGETS: Readonly<Record<string, { kind: Kind; to: number; dtype: string }>> = {
  float: { kind: 'float', to: T.FLOAT, dtype: 'f32' },
  int32: { kind: 'int', to: T.INT32, dtype: 'i32' },
  bool: { kind: 'bool', to: T.BOOL, dtype: 'bool' },
};

const DTYPE_OF_KIND: Readonly<Record<Kind, 'f32' | 'i32'>> = { float: 'f32', int: 'i32', bool: 'i32' };

export const expressionExport: ExportFamily = {
  types: ['pnnx.Expression'],
  export(ctx) {
    const { b, base, node } = ctx;
    const text = ctx.p.raw('expr');
    if (text?.kind !== 'string') return ctx.fail('param expr is missing');
    const parsed = parseExpression(text.value, { inputCount: node.inputs.length });
    const infos = analyseExpression(parsed, node.inputs.map((v) => ({ shape: v.shape!, dtype: v.dtype })));
    const infoOf = new Map<Expr, ValueInfo>(parsed.postorder.map((e, i) => [e, infos[i]!]));
    const unsupported = (what: string): never => ctx.fail(`expr=${text.value}: ${what} has no ONNX operator`);

    /** The item as a tensor of `dtype`: scalars are written, other dtypes cast. */
    const tensor = (item: Item, dtype: 'f32' | 'i32'): string => {
      if ('constant' in item) return b.scalar(item.constant, dtype);
      if (item.dtype === dtype) return item.name;
      return b.op('Cast', [item.name], { to: attr.int(dtype === 'f32' ? T.FLOAT : T.INT32) }, base);
    };

    const root = parsed.postorder[parsed.postorder.length - 1]!;
    const stack: Item[] = [];
    for (const e of parsed.postorder) {
      const info = infoOf.get(e)!;
      const out = e === root ? ctx.output() : undefined;
      const arity = e.kind === 'call' ? e.args.length : e.kind === 'list' ? e.items.length : 0;
      const args = stack.splice(stack.length - arity, arity);
      if (e.kind === 'list') unsupported('a list value');
      if (e.kind === 'operand') {
        stack.push({ kind: info.kind, name: ctx.input(e.index), dtype: node.inputs[e.index]!.dtype });
        continue;
      }
      // Known before the run (literals, size() of static dims, arithmetic on them): a scalar.
      const known = info.value?.[0];
      if (info.shape.length === 0 && !info.isList && known !== undefined) {
        stack.push({ kind: info.kind, constant: known });
        continue;
      }
      if (e.kind !== 'call') return unsupported(`a ${e.kind} literal`);
      const cast = CAST_FUNCTIONS[e.fn];
      if (cast !== undefined) {
        const target = CAST_TARGETS[cast] ?? unsupported(`the cast ${e.fn} (to ${cast}, which wraps in PyTorch)`);
        const x = args[0]!;
        const source = 'constant' in x ? tensor(x, DTYPE_OF_KIND[x.kind]) : x.name;
        stack.push({ kind: target.kind, name: b.op('Cast', [source], { to: attr.int(target.to) }, base, out), dtype: target.dtype });
        continue;
      }
      if (info.kind === 'bool') unsupported(`${e.fn} on bool operands`);
      const table = info.kind === 'float' ? (e.args.length === 1 ? FLOAT_UNARY : FLOAT_BINARY) : INT_FUNCTIONS;
      const write = table[e.fn] ?? unsupported(`${e.fn}${info.kind === 'int' ? ' on integers' : ''}`);
      const dtype = DTYPE_OF_KIND[info.kind];
      stack.push({ kind: info.kind, name: write(b, args.map((a) => tensor(a, dtype)), base, out), dtype });
    }
    // A root that wrote no node of its own (an operand, or a constant): copy it to the output.
    const result = stack[0]!;
    if ('constant' in result || result.name !== ctx.output()) {
      const dtype = ctx.outputDType() === 'f32' ? 'f32' : 'i32';
      const x = 'constant' in result ? tensor(result, dtype) : result.name;
      b.op('Identity', [x], {}, base, ctx.output());
    }
  },
};
