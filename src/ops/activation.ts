// Elementwise activations: one table row per function, one factory for the op definitions.
// The reference computes each element in double precision and rounds once to float32.

import { erf } from '../tensor/math.ts';
import { Tensor } from '../tensor/tensor.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

type Scalar = (x: number) => number;

interface ActivationSpec {
  readonly types: readonly string[];
  /** Builds the scalar function from the node's params (parsed once, at load). */
  readonly make: (p: ParamReader) => Scalar;
}

const sigmoid: Scalar = (x) => 1 / (1 + Math.exp(-x));

export const ACTIVATIONS: readonly ActivationSpec[] = [
  { types: ['nn.ReLU', 'F.relu'], make: () => (x) => (x > 0 ? x : 0) },
  { types: ['nn.ReLU6', 'F.relu6'], make: () => (x) => Math.min(Math.max(x, 0), 6) },
  { types: ['nn.Sigmoid', 'F.sigmoid', 'torch.sigmoid'], make: () => sigmoid },
  { types: ['nn.SiLU', 'F.silu'], make: () => (x) => x * sigmoid(x) },
  { types: ['nn.Tanh', 'F.tanh', 'torch.tanh'], make: () => Math.tanh },
  { types: ['nn.Hardswish', 'F.hardswish'], make: () => (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6 },
  { types: ['nn.Hardsigmoid', 'F.hardsigmoid'], make: () => (x) => Math.min(Math.max(x + 3, 0), 6) / 6 },
  { types: ['nn.Mish', 'F.mish'], make: () => (x) => x * Math.tanh(Math.log1p(Math.exp(x))) },
  {
    types: ['nn.LeakyReLU', 'F.leaky_relu'],
    make: (p) => {
      const slope = p.float('negative_slope', 0.01);
      return (x) => (x >= 0 ? x : x * slope);
    },
  },
  {
    types: ['nn.ELU', 'F.elu'],
    make: (p) => {
      const alpha = p.float('alpha', 1);
      return (x) => (x > 0 ? x : alpha * Math.expm1(x));
    },
  },
  {
    types: ['nn.Hardtanh', 'F.hardtanh'],
    make: (p) => {
      const lo = p.float('min_val', -1);
      const hi = p.float('max_val', 1);
      if (lo > hi) p.fail(`min_val=${lo} is greater than max_val=${hi}`);
      return (x) => Math.min(Math.max(x, lo), hi);
    },
  },
  {
    types: ['nn.Softplus', 'F.softplus'],
    make: (p) => {
      const beta = p.float('beta', 1);
      const threshold = p.float('threshold', 20);
      if (beta === 0) p.fail('beta=0: softplus divides by beta');
      // Above the threshold PyTorch returns x itself (log1p(exp(b*x))/b equals x to float precision there).
      return (x) => (x * beta > threshold ? x : Math.log1p(Math.exp(beta * x)) / beta);
    },
  },
  {
    types: ['torch.clamp', 'torch.clip'],
    make: (p) => {
      const lo = p.has('min') ? p.float('min') : -Infinity;
      const hi = p.has('max') ? p.float('max') : Infinity;
      if (!p.has('min') && !p.has('max')) p.fail('min and max are both None: at least one bound is needed');
      // min > max gives max everywhere, as in PyTorch; NaN stays NaN.
      return (x) => Math.min(Math.max(x, lo), hi);
    },
  },
  {
    types: ['nn.GELU', 'F.gelu'],
    make: (p) => {
      const approximate = p.string('approximate', ['none', 'tanh'], 'none');
      if (approximate === 'tanh') {
        const c = Math.sqrt(2 / Math.PI);
        return (x) => 0.5 * x * (1 + Math.tanh(c * (x + 0.044715 * x * x * x)));
      }
      return (x) => 0.5 * x * (1 + erf(x / Math.SQRT2));
    },
  },
];

function activationOp(spec: ActivationSpec): OpDef {
  return {
    types: spec.types,
    bind(node) {
      const p = new ParamReader(node);
      const fn = spec.make(p);
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          return sameAsInput(inputs);
        },
        macs: noMacs,
        reference(inputs) {
          const x = inputs[0]!.f32;
          const y = new Float32Array(x.length);
          for (let i = 0; i < x.length; i++) y[i] = fn(x[i]!);
          return [new Tensor('f32', inputs[0]!.shape, y)];
        },
      };
    },
  };
}

export const activationOps: readonly OpDef[] = ACTIVATIONS.map(activationOp);

/** Every PNNX type handled as an elementwise activation. */
export function activationTypes(): string[] {
  return ACTIVATIONS.flatMap((a) => a.types);
}
