// Elementwise activations (src/ops/activation.ts) in ONNX opset 17. Where opset 17 has no operator of
// the same meaning, the activation is written out as PyTorch defines it:
//   SiLU  x * Sigmoid(x)            Mish  x * Tanh(Softplus(x))   (Mish is opset 18)
//   GELU  0.5 * x * (1 + Erf(x / sqrt 2)), or its tanh form      (Gelu is opset 20)
//   Softplus(beta, threshold)  Softplus(beta * x) / beta, and x itself where beta * x > threshold
// The same table serves activations fused into a convolution or linear layer (`flowinfer.activation`).

import { Node } from '../../../graph/graph.ts';
import { ACTIVATIONS } from '../../../ops/activation.ts';
import { ACTIVATION_PARAM, readFusedActivation } from '../../../ops/fused-activation.ts';
import { ParamReader } from '../../../ops/params.ts';
import { attr, type OnnxGraphBuilder } from '../builder.ts';
import type { ExportFamily, NodeContext } from '../context.ts';

/** Writes the activation of `x`; the result is named `out` if given. */
type Emit = (b: OnnxGraphBuilder, x: string, p: ParamReader, base: string, out?: string) => string;

const unary = (opType: string): Emit => (b, x, _p, base, out) => b.op(opType, [x], {}, base, out);

const clip = (lo: string, hi: string, base: string, b: OnnxGraphBuilder, x: string, out?: string) => b.op('Clip', [x, lo, hi], {}, base, out);

/** Keyed by the first PNNX type of each ACTIVATIONS row (the nn. module name). */
const EMIT: Readonly<Record<string, Emit>> = {
  'nn.ReLU': unary('Relu'),
  'nn.Sigmoid': unary('Sigmoid'),
  'nn.Tanh': unary('Tanh'),
  'nn.Hardswish': unary('HardSwish'),
  'nn.ReLU6': (b, x, _p, base, out) => clip(b.scalar(0), b.scalar(6), base, b, x, out),
  // PyTorch: relu6(x + 3) / 6, i.e. clip(x / 6 + 1 / 2, 0, 1).
  'nn.Hardsigmoid': (b, x, _p, base, out) => b.op('HardSigmoid', [x], { alpha: attr.float(1 / 6), beta: attr.float(0.5) }, base, out),
  'nn.SiLU': (b, x, _p, base, out) => b.op('Mul', [x, b.op('Sigmoid', [x], {}, base)], {}, base, out),
  'nn.Mish': (b, x, _p, base, out) => b.op('Mul', [x, b.op('Tanh', [b.op('Softplus', [x], {}, base)], {}, base)], {}, base, out),
  'nn.LeakyReLU': (b, x, p, base, out) => b.op('LeakyRelu', [x], { alpha: attr.float(p.float('negative_slope', 0.01)) }, base, out),
  'nn.ELU': (b, x, p, base, out) => b.op('Elu', [x], { alpha: attr.float(p.float('alpha', 1)) }, base, out),
  'nn.Hardtanh': (b, x, p, base, out) => clip(b.scalar(p.float('min_val', -1)), b.scalar(p.float('max_val', 1)), base, b, x, out),
  'torch.clamp': (b, x, p, base, out) => {
    // An omitted bound is an empty optional input; min > max gives max everywhere in both.
    const lo = p.has('min') ? b.scalar(p.float('min')) : '';
    const hi = p.has('max') ? b.scalar(p.float('max')) : '';
    if (!lo && !hi) p.fail('min and max are both None: at least one bound is needed');
    return clip(lo, hi, base, b, x, out);
  },
  'nn.Softplus': (b, x, p, base, out) => {
    const beta = p.float('beta', 1);
    const threshold = p.float('threshold', 20);
    if (beta === 0) p.fail('beta=0: softplus divides by beta');
    // Past the default threshold, log1p(exp(b*x))/b and x agree to float32 precision: plain Softplus is exact.
    if (beta === 1 && threshold >= 20) return b.op('Softplus', [x], {}, base, out);
    const scaled = beta === 1 ? x : b.op('Mul', [x, b.scalar(beta)], {}, base);
    const soft = b.op('Softplus', [scaled], {}, base);
    const smooth = beta === 1 ? soft : b.op('Div', [soft, b.scalar(beta)], {}, base);
    return b.op('Where', [b.op('Greater', [scaled, b.scalar(threshold)], {}, base), x, smooth], {}, base, out);
  },
  'nn.GELU': (b, x, p, base, out) => {
    const half = b.op('Mul', [x, b.scalar(0.5)], {}, base);
    let inner: string;
    if (p.string('approximate', ['none', 'tanh'], 'none') === 'tanh') {
      // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
      const cube = b.op('Mul', [x, b.op('Mul', [x, x], {}, base)], {}, base);
      const poly = b.op('Add', [x, b.op('Mul', [cube, b.scalar(0.044715)], {}, base)], {}, base);
      inner = b.op('Tanh', [b.op('Mul', [poly, b.scalar(Math.sqrt(2 / Math.PI))], {}, base)], {}, base);
    } else {
      inner = b.op('Erf', [b.op('Div', [x, b.scalar(Math.SQRT2)], {}, base)], {}, base);
    }
    return b.op('Mul', [half, b.op('Add', [inner, b.scalar(1)], {}, base)], {}, base, out);
  },
};

/** The EMIT row of a PNNX activation type (any of its aliases), if ONNX has one. */
function emitterOf(type: string): Emit | undefined {
  const row = ACTIVATIONS.find((a) => a.types.includes(type));
  return row ? EMIT[row.types[0]!] : undefined;
}

/** Applies the activation fused into `ctx.node` (if any) to `x`; the final result is named `out`. */
export function emitFusedActivation(ctx: NodeContext, x: string, out: string): string {
  const fused = readFusedActivation(ctx.node);
  if (!fused) return ctx.b.op('Identity', [x], {}, ctx.base, out);
  const emit = emitterOf(fused.type);
  if (!emit) ctx.fail(`${ACTIVATION_PARAM}=${fused.type} has no ONNX form`);
  // The activation's params are read as if by the activation node itself, as the reference does.
  const carrier = new Node(fused.type, `${ctx.node.name} (fused ${fused.type})`, [], []);
  carrier.source = ctx.node.source;
  for (const [k, v] of fused.params) carrier.params.set(k, v);
  return emit(ctx.b, x, new ParamReader(carrier), `${ctx.base}.act`, out);
}

/** True when `node` carries a fused activation. */
export const hasFusedActivation = (node: Node): boolean => node.params.has(ACTIVATION_PARAM);

export const activationExport: ExportFamily = {
  types: ACTIVATIONS.flatMap((a) => (EMIT[a.types[0]!] ? a.types : [])),
  export(ctx) {
    emitterOf(ctx.node.type)!(ctx.b, ctx.input(0), ctx.p, ctx.base, ctx.output());
  },
};
