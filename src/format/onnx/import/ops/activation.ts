// Activations. Where PyTorch has the same function the PNNX module is used (it has fast kernels and fuses
// into a preceding convolution); the others are pnnx.Expressions, exact to the ONNX definitions:
//   Selu       gamma * (max(x,0) + min(alpha * expm1(x), 0))
//   Softsign   x / (1 + |x|)
//   HardSigmoid(alpha, beta)  clamp(alpha x + beta, 0, 1): nn.Hardsigmoid when alpha = 1/6, beta = 1/2
//   Clip(lo, hi)  nn.ReLU6 / nn.ReLU after a convolution or linear layer (the epilogue applies them),
//                 else min(max(x, lo), hi), which fuses with the elementwise chain around it
//   PRelu      nn.PReLU for one slope or one per channel (dim 1); any other slope shape as an expression

import { call, type Expr } from '../../../../expr/index.ts';
import { P } from '../../../../graph/param.ts';
import { numel } from '../../../../tensor/shape.ts';
import { toFloat32 } from '../../../../tensor/dtype.ts';
import { type Converter, type ImportContext, type OnnxNode, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { SILU } from '../patterns.ts';
import { expression } from './expression.ts';
import { lit } from './elementwise.ts';

/** float32's largest finite value: the opset < 11 Clip defaults. */
const FLT_MAX = 3.4028234663852886e38;

const module = (type: string, params: (node: OnnxNode) => Array<[string, ReturnType<typeof P.float>]> = () => []): Converter =>
  (ctx, node) => {
    ctx.set(node.outputs[0]!, ctx.op1(type, [ctx.get(node.inputs[0]!)], { params: params(node), outputs: [node.outputs[0]!] }));
  };

const expr = (build: (x: Expr, node: OnnxNode) => Expr): Converter => (ctx, node) => {
  ctx.set(node.outputs[0]!, expression(ctx, [ctx.get(node.inputs[0]!)], (args) => build(args[0]!, node), node.outputs[0]));
};

/** The PNNX type of the node producing an operand. */
const producerType = (o: Operand) => (o.kind === 'value' ? o.value.producer?.type : undefined);
const EPILOGUE_PRODUCERS = new Set(['nn.Conv2d', 'nn.Linear', 'nn.ConvTranspose2d']);

function clipBounds(ctx: ImportContext, node: OnnxNode): [number, number] {
  if (node.opset < 11) return [node.attrs.float('min', -FLT_MAX), node.attrs.float('max', FLT_MAX)];
  const lo = ctx.numbersInput(node, 1, 'the lower bound')?.[0];
  const hi = ctx.numbersInput(node, 2, 'the upper bound')?.[0];
  return [lo ?? -Infinity, hi ?? Infinity];
}

const clip: Converter = (ctx, node) => {
  const [lo, hi] = clipBounds(ctx, node);
  const x = ctx.get(node.inputs[0]!);
  const out = node.outputs[0]!;
  const unbounded = (v: number) => !Number.isFinite(v) || Math.abs(v) >= FLT_MAX;
  if (EPILOGUE_PRODUCERS.has(producerType(x) ?? '') && lo === 0 && (hi === 6 || unbounded(hi))) {
    ctx.set(out, ctx.op1(hi === 6 ? 'nn.ReLU6' : 'nn.ReLU', [x], { outputs: [out] }));
    return;
  }
  if (unbounded(lo) && unbounded(hi)) {
    ctx.set(out, x);
    return;
  }
  ctx.set(out, expression(ctx, [x], ([v]) => {
    let e = v!;
    if (!unbounded(lo)) e = call('max', e, lit(lo));
    if (!unbounded(hi)) e = call('min', e, lit(hi));
    return e;
  }, out));
};

const hardSigmoid: Converter = (ctx, node) => {
  const alpha = node.attrs.float('alpha', 0.2);
  const beta = node.attrs.float('beta', 0.5);
  if (Math.abs(alpha - 1 / 6) < 1e-6 && beta === 0.5) return module('nn.Hardsigmoid')(ctx, node);
  return expr((x) => call('min', call('max', call('add', call('mul', x, lit(alpha)), lit(beta)), lit(0)), lit(1)))(ctx, node);
};

const selu: Converter = (ctx, node) => {
  const alpha = node.attrs.float('alpha', 1.6732632423543772);
  const gamma = node.attrs.float('gamma', 1.0507009873554805);
  return expr((x) => call('mul', call('add', call('max', x, lit(0)), call('min', call('mul', call('expm1', x), lit(alpha)), lit(0))), lit(gamma)))(ctx, node);
};

const celu: Converter = (ctx, node) => {
  const alpha = node.attrs.float('alpha', 1);
  return expr((x) => call('add', call('max', x, lit(0)), call('min', call('mul', call('expm1', call('div', x, lit(alpha))), lit(alpha)), lit(0))))(ctx, node);
};

const prelu: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const slope = ctx.get(node.inputs[1]!);
  const out = node.outputs[0]!;
  const xShape = ctx.shapeOf(x);
  if (slope.kind === 'const' && x.kind === 'value') {
    const count = numel(slope.tensor.shape);
    // Aligned from the right (opset 7's unidirectional broadcast), the slope varies only along dim 1.
    const s = slope.tensor.shape;
    const aligned = [...new Array<number>(Math.max(0, xShape.length - s.length)).fill(1), ...s];
    const perChannel = xShape.length >= 2 && aligned.length === xShape.length && aligned.every((d, k) => (k === 1 ? d === xShape[1] : d === 1));
    if (count === 1 || perChannel) {
      const weight = Float32Array.from(toFloat32(slope.tensor.dtype, slope.tensor.data));
      ctx.set(out, ctx.op1('nn.PReLU', [x], {
        params: [['num_parameters', P.int(count)]], weights: [['weight', { dtype: 'f32', shape: [count], data: weight }]], outputs: [out],
      }));
      return;
    }
  }
  ctx.set(out, expression(ctx, [x, slope], ([v, a]) => call('add', call('max', v!, lit(0)), call('mul', call('min', v!, lit(0)), a!)), out));
};

const gelu: Converter = (ctx, node) => {
  const approximate = node.attrs.string('approximate', 'none');
  if (approximate !== 'none' && approximate !== 'tanh') throw new Unsupported(`approximate=${approximate}`);
  ctx.set(node.outputs[0]!, ctx.op1('nn.GELU', [ctx.get(node.inputs[0]!)], { params: [['approximate', P.string(approximate)]], outputs: [node.outputs[0]!] }));
};

export const ACTIVATIONS: ReadonlyArray<[string, Converter]> = [
  ['Relu', module('nn.ReLU')],
  ['Sigmoid', module('nn.Sigmoid')],
  ['Tanh', module('nn.Tanh')],
  ['HardSwish', module('nn.Hardswish')],
  ['Mish', module('nn.Mish')],
  ['LeakyRelu', module('nn.LeakyReLU', (n) => [['negative_slope', P.float(n.attrs.float('alpha', 0.01))]])],
  ['Elu', module('nn.ELU', (n) => [['alpha', P.float(n.attrs.float('alpha', 1))]])],
  ['Softplus', module('nn.Softplus')],
  ['Softsign', expr((x) => call('div', x, call('add', call('abs', x), lit(1))))],
  ['Selu', selu],
  ['Celu', celu],
  ['HardSigmoid', hardSigmoid],
  ['Clip', clip],
  ['PRelu', prelu],
  ['Gelu', gelu],
  // x * Sigmoid(x), found by patterns.ts
  [SILU, module('nn.SiLU')],
];
