// An unfused BatchNorm (the passes fold most into their convolution) as a channel affine on
// f32_affine_rows: scale[c] = weight[c] / sqrt(running_var[c] + eps) and shift[c] = bias[c] -
// running_mean[c] * scale[c], folded in double precision at load. The channel must be the innermost
// storage dim: NHWC (N,C,H,W), or a plain (N,C).

import type { Node, Value } from '../../graph/graph.ts';
import { ROW_PARAMS_BYTES } from '../../kernels/abi.ts';
import { writeAffineParams } from '../../kernels/eltwise.ts';
import type { BuildContext, Lowered, PlannedStep } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { sameShape } from '../../tensor/shape.ts';
import { batchNormAffine } from '../batchnorm.ts';
import { f32Only, rangeStep, rowsOf } from './eltwise-range.ts';

/**
 * One f32_affine_rows step: y[row][c] = x[row][c] * scale[c] + shift[c] over the rows of x's view (NHWC
 * pixels or a plain tensor's last dim), the table copied into the arena once. Also the kernel of
 * constant affine expressions (scalar-affine.ts), whose table repeats one scale and one shift.
 */
export function affineRowsStep(ctx: BuildContext, node: Node, x: Value, y: Value, scale: ArrayLike<number>, shift: ArrayLike<number>): PlannedStep[] {
  const xv = ctx.view(x);
  const yv = ctx.view(y);
  const xr = rowsOf(xv);
  const yr = rowsOf(yv);
  const c = yr.cols;
  if (yr.rows === 0 || c === 0) return [];
  const table = ctx.arena.alloc(2 * c * 4, 16);
  ctx.arena.f32(table, c).set(scale);
  ctx.arena.f32(table + c * 4, c).set(shift);
  return rangeStep(ctx, label(node), 'f32_affine_rows', yr.rows, c * 8, ROW_PARAMS_BYTES, (at, base) =>
    writeAffineParams(ctx.arena.memory, at, {
      x: { at: base + xv.offset, stride: xr.stride }, y: { at: base + yv.offset, stride: yr.stride }, rows: yr.rows, c,
      scale: table, shift: table + c * 4,
    }));
}

export function lowerBatchNorm(node: Node): Lowered | undefined {
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!x || !y || node.inputs.length !== 1 || !f32Only(x, y) || !sameShape(x.shape!, y.shape!)) return undefined;
  const rank = x.shape!.length;
  if (rank !== 4 && rank !== 2) return undefined; // (N,C,L): the channel is not the innermost storage dim
  return {
    build(ctx) {
      const { scale, shift } = batchNormAffine(node);
      return affineRowsStep(ctx, node, x, y, scale, shift);
    },
  };
}
