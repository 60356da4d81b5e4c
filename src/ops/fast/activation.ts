// Standalone activations (not fused into a producer) on f32_unary_rows. Dense tensors run as one span
// of floats split anywhere; a strided NHWC view (a channel slice) runs pixel by pixel.

import type { Node } from '../../graph/graph.ts';
import { ROW_PARAMS_BYTES } from '../../kernels/abi.ts';
import { writeUnaryParams, type UnaryOp } from '../../kernels/eltwise.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import type { TensorView } from '../../runtime/fast/views.ts';
import { numel, sameShape } from '../../tensor/shape.ts';
import { ParamReader } from '../params.ts';
import { f32Only, isDense, rangeStep, rowsOf } from './eltwise-range.ts';

interface UnarySpec {
  readonly op: UnaryOp;
  /** Reads the activation's parameter (LeakyReLU slope, ELU alpha) with PyTorch's default. */
  readonly alpha?: (p: ParamReader) => number;
}

const spec = (types: string[], s: UnarySpec): Array<[string, UnarySpec]> => types.map((t) => [t, s]);

/** Activation types and their kernel ops (GELU, Mish, Softplus, Hardtanh, clamp stay on the fallback). */
export const UNARY_TYPES: ReadonlyMap<string, UnarySpec> = new Map([
  ...spec(['nn.ReLU', 'F.relu'], { op: 'relu' }),
  ...spec(['nn.ReLU6', 'F.relu6'], { op: 'relu6' }),
  ...spec(['nn.Sigmoid', 'F.sigmoid', 'torch.sigmoid'], { op: 'sigmoid' }),
  ...spec(['nn.SiLU', 'F.silu'], { op: 'silu' }),
  ...spec(['nn.Hardswish', 'F.hardswish'], { op: 'hardswish' }),
  ...spec(['nn.Hardsigmoid', 'F.hardsigmoid'], { op: 'hardsigmoid' }),
  ...spec(['nn.LeakyReLU', 'F.leaky_relu'], { op: 'leaky_relu', alpha: (p) => p.float('negative_slope', 0.01) }),
  ...spec(['nn.Tanh', 'F.tanh', 'torch.tanh'], { op: 'tanh' }),
  ...spec(['nn.ELU', 'F.elu'], { op: 'elu', alpha: (p) => p.float('alpha', 1) }),
]);

// Work per float in streamed bytes (eltwise-range.ts): clamps move at memory speed (read + write = 8
// bytes); the exp-based ones run ~10x longer per float (bench/kernels/eltwise.ts: 5 vs 55 GB/s).
const COST: Partial<Record<UnaryOp, number>> = { sigmoid: 80, silu: 80, tanh: 80, elu: 80 };

/** Rows of a unary or row kernel: the whole tensor as one span when both views are dense. */
export function unaryRows(x: TensorView, y: TensorView): { rows: number; c: number; xs: number; ys: number } {
  if (isDense(x) && isDense(y)) return { rows: numel(y.shape), c: 1, xs: 1, ys: 1 };
  const r = rowsOf(y);
  return { rows: r.rows, c: r.cols, xs: rowsOf(x).stride, ys: r.stride };
}

export function lowerActivation(node: Node): Lowered | undefined {
  const s = UNARY_TYPES.get(node.type);
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!s || !x || !y || node.inputs.length !== 1 || node.outputs.length !== 1 || !f32Only(x, y) || !sameShape(x.shape!, y.shape!)) return undefined;
  const alpha = s.alpha?.(new ParamReader(node)) ?? 0;
  return {
    stridedViews: true,
    build(ctx) {
      const xv = ctx.view(x);
      const yv = ctx.view(y);
      const r = unaryRows(xv, yv);
      return rangeStep(ctx, label(node), 'f32_unary_rows', r.rows, r.c * (COST[s.op] ?? 8), ROW_PARAMS_BYTES, (at, base) =>
        writeUnaryParams(ctx.arena.memory, at, {
          x: { at: base + xv.offset, stride: r.xs }, y: { at: base + yv.offset, stride: r.ys }, rows: r.rows, c: r.c, op: s.op, alpha,
        }));
    },
  };
}
