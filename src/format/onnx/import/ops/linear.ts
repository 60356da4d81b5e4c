// Gemm and MatMul. A product with a constant right-hand matrix is an nn.Linear (the fast path's packed
// GEMM): Gemm's W = alpha * (transB ? B : B^T) and bias = beta * C when C is one value per output (shape
// (), (1), (N) or (1,N)); any other C is added after the linear layer. A product of two run-time tensors is
// a torch.matmul, with alpha, beta and C as an expression after it.

import { call } from '../../../../expr/index.ts';
import type { Weight } from '../../../../graph/graph.ts';
import { P } from '../../../../graph/param.ts';
import { toFloat32 } from '../../../../tensor/dtype.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { type Converter, type ImportContext, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { expression } from './expression.ts';
import { lit } from './elementwise.ts';

/** (K, N) → (N, K) as float32, every value times `scale`. */
function transposed(b: Tensor, scale: number): Float32Array {
  const [k, n] = b.shape as [number, number];
  const src = toFloat32(b.dtype, b.data);
  const out = new Float32Array(k * n);
  for (let i = 0; i < k; i++) for (let j = 0; j < n; j++) out[j * k + i] = scale === 1 ? src[i * n + j]! : Math.fround(scale * src[i * n + j]!);
  return out;
}

const swapLast = (ctx: ImportContext, x: Operand, suffix: string): Operand => {
  const rank = ctx.shapeOf(x).length;
  const dims = Array.from({ length: rank }, (_, i) => i);
  [dims[rank - 2], dims[rank - 1]] = [rank - 1, rank - 2];
  return ctx.op1('Tensor.permute', [x], { params: [['dims', P.ints(dims)]], suffix });
};

/** nn.Linear over x's last dim with weight (N, K) and an optional bias (N). */
function linear(ctx: ImportContext, x: Operand, weight: Float32Array, n: number, k: number, bias: Float32Array | undefined, out: string | undefined): Operand {
  const weights: Array<[string, Weight]> = [['weight', { dtype: 'f32', shape: [n, k], data: weight }]];
  if (bias) weights.push(['bias', { dtype: 'f32', shape: [n], data: bias }]);
  return ctx.op1('nn.Linear', [x], {
    params: [['in_features', P.int(k)], ['out_features', P.int(n)], ['bias', P.bool(bias !== undefined)]],
    weights, outputs: out ? [out] : 1,
  });
}

export const gemm: Converter = (ctx, node) => {
  const { attrs } = node;
  attrs.ignore('broadcast'); // opset < 7: numpy broadcasting of C gives the same result
  const alpha = attrs.float('alpha', 1);
  const beta = attrs.float('beta', 1);
  const transA = attrs.int('transA', 0) === 1;
  const transB = attrs.int('transB', 0) === 1;
  let a = ctx.get(node.inputs[0]!);
  const b = ctx.get(node.inputs[1]!);
  const c = ctx.input(node, 2);
  const out = node.outputs[0]!;
  if (ctx.shapeOf(a).length !== 2 || ctx.shapeOf(b).length !== 2) throw new Unsupported('A and B must be matrices');
  if (transA) a = swapLast(ctx, a, 'transA');
  const useC = c !== undefined && beta !== 0;
  if (b.kind === 'const' && a.kind === 'value') {
    const bt = transB ? b.tensor : new Tensor(b.tensor.dtype, [...b.tensor.shape].reverse(), transposed(b.tensor, 1));
    const [n, k] = bt.shape as [number, number];
    const w = Float32Array.from(toFloat32(bt.dtype, bt.data), (v) => (alpha === 1 ? v : Math.fround(alpha * v)));
    const cShape = c ? ctx.shapeOf(c) : [];
    const perOutput = c?.kind === 'const' && (c.tensor.size === 1 || (c.tensor.size === n && cShape[cShape.length - 1] === n && cShape.length <= 2));
    if (!useC || perOutput) {
      let bias: Float32Array | undefined;
      if (useC) {
        const values = toFloat32(c!.kind === 'const' ? c!.tensor.dtype : 'f32', (c as { tensor: Tensor }).tensor.data);
        bias = Float32Array.from({ length: n }, (_, j) => Math.fround(beta * values[values.length === 1 ? 0 : j]!));
      }
      ctx.set(out, linear(ctx, a, w, n, k, bias, out));
      return;
    }
    const y = linear(ctx, a, w, n, k, undefined, undefined);
    ctx.set(out, expression(ctx, [y, c!], ([p, q]) => call('add', p!, beta === 1 ? q! : call('mul', q!, lit(beta))), out, 'bias'));
    return;
  }
  const bb = transB ? swapLast(ctx, b, 'transB') : b;
  const product = ctx.op1('torch.matmul', [a, bb], { outputs: alpha === 1 && !useC ? [out] : 1 });
  if (alpha === 1 && !useC) {
    ctx.set(out, product);
    return;
  }
  const operands: Operand[] = useC ? [product, c!] : [product];
  ctx.set(out, expression(ctx, operands, ([p, q]) => {
    const scaled = alpha === 1 ? p! : call('mul', p!, lit(alpha));
    return q ? call('add', scaled, beta === 1 ? q : call('mul', q, lit(beta))) : scaled;
  }, out, 'scale'));
};

export const matMul: Converter = (ctx, node) => {
  const a = ctx.get(node.inputs[0]!);
  const b = ctx.get(node.inputs[1]!);
  const out = node.outputs[0]!;
  if (a.kind === 'value' && b.kind === 'const' && b.tensor.shape.length === 2) {
    const [k, n] = b.tensor.shape as [number, number];
    ctx.set(out, linear(ctx, a, transposed(b.tensor, 1), n, k, undefined, out));
    return;
  }
  ctx.set(out, ctx.op1('torch.matmul', [a, b], { outputs: [out] }));
};
