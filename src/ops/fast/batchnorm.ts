// An unfused BatchNorm (the passes fold most into their convolution) as a channel affine on
// f32_affine_rows: scale[c] = weight[c] / sqrt(running_var[c] + eps) and shift[c] = bias[c] -
// running_mean[c] * scale[c], folded in double precision at load. The channel must be the innermost
// storage dim: NHWC (N,C,H,W), or a plain (N,C).

import type { Node } from '../../graph/graph.ts';
import { ROW_PARAMS_BYTES } from '../../kernels/abi.ts';
import { writeAffineParams } from '../../kernels/eltwise.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { sameShape } from '../../tensor/shape.ts';
import { ParamReader } from '../params.ts';
import { f32Only, rangeStep, rowsOf } from './eltwise-range.ts';

/** The folded (scale, shift) of a BatchNorm node, float32. */
export function foldBatchNorm(node: Node): { scale: Float32Array; shift: Float32Array } {
  const p = new ParamReader(node);
  const features = p.int('num_features');
  const eps = p.float('eps', 1e-5);
  const affine = p.bool('affine', true);
  const mean = p.weightF32('running_mean');
  const variance = p.weightF32('running_var');
  const weight = affine ? p.weightF32('weight') : undefined;
  const bias = affine ? p.weightF32('bias') : undefined;
  const scale = new Float32Array(features);
  const shift = new Float32Array(features);
  for (let c = 0; c < features; c++) {
    const s = (weight ? weight[c]! : 1) / Math.sqrt(variance[c]! + eps);
    scale[c] = s;
    shift[c] = (bias ? bias[c]! : 0) - mean[c]! * s;
  }
  return { scale, shift };
}

export function lowerBatchNorm(node: Node): Lowered | undefined {
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!x || !y || node.inputs.length !== 1 || !f32Only(x, y) || !sameShape(x.shape!, y.shape!)) return undefined;
  const rank = x.shape!.length;
  if (rank !== 4 && rank !== 2) return undefined; // (N,C,L): the channel is not the innermost storage dim
  return {
    build(ctx) {
      const { scale, shift } = foldBatchNorm(node);
      const c = scale.length;
      const table = ctx.arena.alloc(2 * c * 4, 16);
      ctx.arena.f32(table, c).set(scale);
      ctx.arena.f32(table + c * 4, c).set(shift);
      const xv = ctx.view(x);
      const yv = ctx.view(y);
      const xr = rowsOf(xv);
      const yr = rowsOf(yv);
      return rangeStep(ctx, label(node), 'f32_affine_rows', yr.rows, c * 8, ROW_PARAMS_BYTES, (at, base) =>
        writeAffineParams(ctx.arena.memory, at, {
          x: { at: base + xv.offset, stride: xr.stride }, y: { at: base + yv.offset, stride: yr.stride }, rows: yr.rows, c,
          scale: table, shift: table + c * 4,
        }));
    },
  };
}
