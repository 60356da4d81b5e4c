// The reference evaluator: a stack machine over the reverse-Polish listing that materialises every
// intermediate tensor. Slow and plain on purpose: it is the oracle the fused kernels are tested against.

import type { Expr } from './ast.ts';
import { failAt, type Fail } from './error.ts';
import { operandOutOfRange, toParsed, type ExpressionInput } from './parser.ts';
import { scalarFunction } from './scalar.ts';
import { broadcastPair, KIND_DTYPE, kindOfDType, planCall, resolveDim, type Kind } from './semantics.ts';
import { toFloat32 } from '../tensor/dtype.ts';
import { numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';

/** An intermediate value: elements as doubles holding exact float32 / int32 / 0-1 values. */
interface Value {
  readonly shape: readonly number[];
  readonly kind: Kind;
  readonly isList: boolean;
  readonly data: Float64Array;
}

const scalar = (kind: Kind, v: number): Value => ({ shape: [], kind, isList: false, data: Float64Array.of(v) });

/**
 * Evaluates `expr` on `inputs` (`@N` is `inputs[N]`) with PyTorch semantics (see semantics.ts and scalar.ts).
 * Inputs may be any real dtype (f16/bf16/f64 are computed as f32, 64-bit ints wrap to int32).
 * The result is f32, i32 or bool; a list gives a 1-D tensor (i32, or f32 if an item is float),
 * a scalar a 0-d tensor.
 */
export function evaluateExpression(expr: ExpressionInput, inputs: readonly Tensor[]): Tensor {
  const parsed = toParsed(expr);
  const stack: Value[] = [];
  const operands = new Map<number, Value>();
  for (const node of parsed.postorder) {
    const fail = failAt(parsed.text, node.span, parsed.file);
    const arity = node.kind === 'call' ? node.args.length : node.kind === 'list' ? node.items.length : 0;
    const args = stack.splice(stack.length - arity, arity);
    stack.push(evaluateNode(node, args, fail));
  }
  return toTensor(stack.pop()!);

  function evaluateNode(node: Expr, args: Value[], fail: Fail): Value {
    switch (node.kind) {
      case 'operand': {
        const input = inputs[node.index];
        if (input === undefined) {
          throw operandOutOfRange(parsed.text, node.index, inputs.length, node.span?.start ?? 0, node.span?.end ?? 0, parsed.file);
        }
        let value = operands.get(node.index);
        if (value === undefined) operands.set(node.index, (value = readTensor(input, fail)));
        return value;
      }
      case 'int': return scalar('int', node.value);
      case 'float': return scalar('float', Math.fround(node.value));
      case 'bool': return scalar('bool', node.value ? 1 : 0);
      case 'complex': return fail('unsupported value', 'a complex literal', 'a real number (the engine computes no complex values)');
      case 'none': return fail('unsupported value', 'None', 'a number or a tensor');
      case 'list': return makeList(args, fail);
      case 'call': {
        if (node.fn === 'size') return size(args[0]!, node.args[1], fail);
        for (const arg of args) {
          if (arg.isList) fail('list operand', `a list of ${arg.shape[0]} items`, `a tensor or a scalar as an argument of ${node.fn}`);
        }
        const plan = planCall(node, args.map((a) => a.kind), fail);
        const f = scalarFunction(plan.template, plan.arity);
        const shape = args.length === 1 ? args[0]!.shape : broadcastPair(args[0]!.shape, args[1]!.shape, node.fn, fail);
        const out = new Float64Array(numel(shape));
        try {
          if (args.length === 1) {
            const x = args[0]!.data;
            for (let i = 0; i < out.length; i++) out[i] = f(x[i]!);
          } else {
            const [a, b] = [args[0]!.data, args[1]!.data];
            const [ia, ib] = [broadcastIndex(shape, args[0]!.shape), broadcastIndex(shape, args[1]!.shape)];
            for (let i = 0; i < out.length; i++) out[i] = f(a[ia[i]!]!, b[ib[i]!]!);
          }
        } catch (error) {
          if (error instanceof RangeError) fail('integer division by zero', `a zero divisor in ${node.fn}`, 'non-zero divisors (PyTorch raises ZeroDivisionError)');
          throw error;
        }
        return { shape: [...shape], kind: plan.kind, isList: false, data: out };
      }
    }
  }
}

function size(target: Value, dimNode: Expr | undefined, fail: Fail): Value {
  if (dimNode === undefined) return { shape: [target.shape.length], kind: 'int', isList: true, data: Float64Array.from(target.shape) };
  const d = dimNode.kind === 'int' ? dimNode.value : 0;
  return scalar('int', target.shape[resolveDim(d, target.shape.length, fail)]!);
}

function makeList(items: readonly Value[], fail: Fail): Value {
  for (const item of items) {
    if (item.isList || item.data.length !== 1) {
      fail('bad list item', item.isList ? 'a list' : `a tensor of ${item.data.length} elements`, 'scalars as list items');
    }
  }
  const kind = items.some((item) => item.kind === 'float') ? 'float' : 'int';
  return { shape: [items.length], kind, isList: true, data: Float64Array.from(items, (item) => item.data[0]!) };
}

function readTensor(tensor: Tensor, fail: Fail): Value {
  const kind = kindOfDType(tensor.dtype) ?? fail('unsupported input dtype', tensor.dtype, 'a real dtype (f32, f64, f16, bf16, integers or bool)');
  let data: Float64Array;
  if (kind === 'float') data = Float64Array.from(toFloat32(tensor.dtype, tensor.data));
  else if (tensor.data instanceof BigInt64Array) data = Float64Array.from(tensor.data, (v) => Number(BigInt.asIntN(32, v)));
  else if (kind === 'bool') data = Float64Array.from(tensor.data as ArrayLike<number>, (v) => (v ? 1 : 0));
  else data = Float64Array.from(tensor.data as ArrayLike<number>, (v) => v | 0);
  return { shape: [...tensor.shape], kind, isList: false, data };
}

/** For each element of `out` (row-major), the index of the element of `shape` broadcast onto it. */
function broadcastIndex(out: Shape, shape: Shape): Int32Array {
  const map = new Int32Array(numel(out));
  const strides = stridesOf(shape);
  const lead = out.length - shape.length;
  for (let i = 0; i < map.length; i++) {
    let rest = i;
    let index = 0;
    for (let d = out.length - 1; d >= 0; d--) {
      const coord = rest % out[d]!;
      rest = (rest - coord) / out[d]!;
      if (d >= lead && shape[d - lead] !== 1) index += coord * strides[d - lead]!;
    }
    map[i] = index;
  }
  return map;
}

function toTensor(value: Value): Tensor {
  const data = value.kind === 'float' ? Float32Array.from(value.data)
    : value.kind === 'int' ? Int32Array.from(value.data)
    : Uint8Array.from(value.data);
  return new Tensor(KIND_DTYPE[value.kind], [...value.shape], data);
}
