// The shape and type rule of pnnx.Expression: output shape and dtype from input shapes and dtypes,
// without data. Scalars known before the run (literals, size() of static dims, arithmetic on them)
// are folded, so a reshape list such as `[1,3,int(floor_divide(size(@0,2),2)),-1]` yields its values.

import type { Expr } from './ast.ts';
import { failAt, type Fail } from './error.ts';
import { operandOutOfRange, toParsed, type ExpressionInput, type ParsedExpression } from './parser.ts';
import { scalarFunction } from './scalar.ts';
import { broadcastPair, KIND_DTYPE, kindOfDType, planCall, resolveDim, type Kind, type ResultDType } from './semantics.ts';
import type { DType } from '../tensor/dtype.ts';
import { DYNAMIC, type Shape } from '../tensor/shape.ts';

/** An input's shape (DYNAMIC = -1 for `?`) and dtype (default f32). */
export interface OperandInfo {
  readonly shape: Shape;
  readonly dtype?: DType;
}

/** What the rule knows about one node's value. */
export interface ValueInfo {
  readonly shape: readonly number[];
  readonly kind: Kind;
  readonly isList: boolean;
  /** Element values known before the run (scalars and lists only); undefined entries are known only at run time. */
  readonly value?: readonly (number | undefined)[];
}

export interface ExpressionType {
  /** Output shape; a list gives `[length]`, a scalar `[]`. */
  readonly shape: readonly number[];
  readonly dtype: ResultDType;
  readonly isList: boolean;
  /** Known element values of a scalar or list result (e.g. a reshape target), undefined where dynamic. */
  readonly value?: readonly (number | undefined)[];
}

/** The output shape and dtype; throws an ExprError (shapes named, caret under the function) when shapes clash. */
export function inferExpression(expr: ExpressionInput, inputs: readonly OperandInfo[]): ExpressionType {
  const parsed = toParsed(expr);
  const infos = analyseExpression(parsed, inputs);
  const root = infos[infos.length - 1]!;
  return { shape: root.shape, dtype: KIND_DTYPE[root.kind], isList: root.isList, ...(root.value ? { value: root.value } : {}) };
}

/** One ValueInfo per node of `parsed.postorder`, in that order. */
export function analyseExpression(parsed: ParsedExpression, inputs: readonly OperandInfo[]): ValueInfo[] {
  const infos: ValueInfo[] = [];
  const stack: ValueInfo[] = [];
  for (const node of parsed.postorder) {
    const fail = failAt(parsed.text, node.span, parsed.file);
    const arity = node.kind === 'call' ? node.args.length : node.kind === 'list' ? node.items.length : 0;
    const info = analyseNode(node, stack.splice(stack.length - arity, arity), fail);
    stack.push(info);
    infos.push(info);
  }
  return infos;

  function analyseNode(node: Expr, args: ValueInfo[], fail: Fail): ValueInfo {
    switch (node.kind) {
      case 'operand': {
        const input = inputs[node.index];
        if (input === undefined) {
          throw operandOutOfRange(parsed.text, node.index, inputs.length, node.span?.start ?? 0, node.span?.end ?? 0, parsed.file);
        }
        const dtype = input.dtype ?? 'f32';
        const kind = kindOfDType(dtype) ?? fail('unsupported input dtype', dtype, 'a real dtype (f32, f64, f16, bf16, integers or bool)');
        return { shape: [...input.shape], kind, isList: false };
      }
      case 'int': return known('int', node.value);
      case 'float': return known('float', Math.fround(node.value));
      case 'bool': return known('bool', node.value ? 1 : 0);
      case 'complex': return fail('unsupported value', 'a complex literal', 'a real number (the engine computes no complex values)');
      case 'none': return fail('unsupported value', 'None', 'a number or a tensor');
      case 'list': {
        for (const item of args) {
          if (item.isList || item.shape.some((d) => d !== 1 && d !== DYNAMIC)) {
            fail('bad list item', item.isList ? 'a list' : `a tensor of shape (${item.shape.join(',')})`, 'scalars as list items');
          }
        }
        const kind = args.some((item) => item.kind === 'float') ? 'float' : 'int';
        return { shape: [args.length], kind, isList: true, value: args.map((item) => item.value?.[0]) };
      }
      case 'call': {
        if (node.fn === 'size') return size(args[0]!, node.args[1], fail);
        for (const arg of args) {
          if (arg.isList) fail('list operand', `a list of ${arg.shape[0]} items`, `a tensor or a scalar as an argument of ${node.fn}`);
        }
        const plan = planCall(node, args.map((a) => a.kind), fail);
        const shape = args.length === 1 ? [...args[0]!.shape] : broadcastPair(args[0]!.shape, args[1]!.shape, node.fn, fail);
        const values = args.map((a) => a.value?.[0]);
        if (shape.length > 0 || values.some((v) => v === undefined)) return { shape, kind: plan.kind, isList: false };
        try {
          return known(plan.kind, scalarFunction(plan.template, plan.arity)(...(values as number[])));
        } catch (error) {
          if (error instanceof RangeError) fail('integer division by zero', `a zero divisor in ${node.fn}`, 'non-zero divisors (PyTorch raises ZeroDivisionError)');
          throw error;
        }
      }
    }
  }
}

const known = (kind: Kind, value: number): ValueInfo => ({ shape: [], kind, isList: false, value: [value] });

function size(target: ValueInfo, dimNode: Expr | undefined, fail: Fail): ValueInfo {
  const dims = target.shape.map((d) => (d === DYNAMIC ? undefined : d));
  if (dimNode === undefined) return { shape: [dims.length], kind: 'int', isList: true, value: dims };
  const d = dimNode.kind === 'int' ? dimNode.value : 0;
  return { shape: [], kind: 'int', isList: false, value: [dims[resolveDim(d, dims.length, fail)]] };
}
