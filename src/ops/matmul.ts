// torch.matmul (and torch.mm / torch.bmm): a 1-D operand is promoted (a: (k) → (1,k); b: (k) → (k,1)) and
// the added dim removed from the result; dims before the last two are batch dims and broadcast.
//   (..., m, k) @ (..., k, n) → (broadcast(...), m, n);   (k) @ (k) → () a scalar

import { broadcastShapes, formatShape, numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { stridedIndex } from './layout.ts';
import { type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

interface MatmulPlan {
  readonly batch: number[];
  readonly m: number;
  readonly k: number;
  readonly n: number;
  /** Each operand as (batch..., rows, cols) after promotion. */
  readonly a: number[];
  readonly b: number[];
  readonly out: number[];
}

function planMatmul(p: ParamReader, as: Shape, bs: Shape, ranks: readonly number[] | undefined): MatmulPlan {
  const describe = `${formatShape(as)} @ ${formatShape(bs)}`;
  if (as.length === 0 || bs.length === 0) p.fail(`${describe}: matmul needs operands of rank >= 1`);
  if (ranks && (!ranks.includes(as.length) || as.length !== bs.length)) p.fail(`${describe}: expected two operands of rank ${ranks.join(' or ')}`);
  const a = as.length === 1 ? [1, as[0]!] : [...as];
  const b = bs.length === 1 ? [bs[0]!, 1] : [...bs];
  const [m, k] = a.slice(-2) as [number, number];
  const [kb, n] = b.slice(-2) as [number, number];
  if (k !== kb) p.fail(`${describe}: inner sizes ${k} and ${kb} differ`);
  const batch = broadcastShapes([a.slice(0, -2), b.slice(0, -2)]);
  if (!batch) p.fail(`${describe}: batch dims do not broadcast`);
  const out = [...batch, ...(as.length === 1 ? [] : [m]), ...(bs.length === 1 ? [] : [n])];
  return { batch, m, k, n, a, b, out };
}

/** Offsets of each batch element's matrix inside an operand whose batch dims broadcast to `batch`. */
function batchOffsets(batch: readonly number[], shape: readonly number[]): Int32Array {
  const dims = shape.slice(0, -2);
  const strides = stridesOf(shape);
  const lead = batch.length - dims.length;
  const steps = batch.map((_, i) => (i < lead || dims[i - lead] === 1 ? 0 : strides[i - lead]!));
  return stridedIndex(batch, 0, steps);
}

function matmulOp(types: string[], ranks?: readonly number[]): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      return {
        infer(inputs) {
          p.expectInputs(inputs, 2);
          const plan = planMatmul(p, inputs[0]!.shape, inputs[1]!.shape, ranks);
          return [{ shape: plan.out, dtype: inputs[0]!.dtype }];
        },
        macs: (inputs) => {
          const plan = planMatmul(p, inputs[0]!.shape, inputs[1]!.shape, ranks);
          return numel(plan.batch) * plan.m * plan.n * plan.k;
        },
        reference(inputs) {
          p.expectInputs(inputs, 2);
          const { batch, m, k, n, a, b, out } = planMatmul(p, inputs[0]!.shape, inputs[1]!.shape, ranks);
          const [ad, bd] = [inputs[0]!.f32, inputs[1]!.f32];
          const aAt = batchOffsets(batch, a);
          const bAt = batchOffsets(batch, b);
          const result = new Float32Array(numel(batch) * m * n);
          for (let t = 0; t < aAt.length; t++) {
            for (let i = 0; i < m; i++) {
              for (let j = 0; j < n; j++) {
                let s = 0;
                for (let q = 0; q < k; q++) s += ad[aAt[t]! + i * k + q]! * bd[bAt[t]! + q * n + j]!;
                result[(t * m + i) * n + j] = s;
              }
            }
          }
          return [Tensor.f32(out, result)];
        },
      };
    },
  };
}

export const matmul = matmulOp(['torch.matmul']);
export const mm = matmulOp(['torch.mm'], [2]);
export const bmm = matmulOp(['torch.bmm'], [3]);
