// torch.cat as strided row copies (f32_copy_rows), one kernel call over all inputs:
//   NHWC along channels (dim 1)     row = pixel; input i fills floats [offset_i, offset_i + C_i) of each
//                                   output pixel (any pixel strides)
//   NHWC along N, H or W (dense)    row = the storage block before the axis, as for plain tensors
//   plain along any dim             row = outer index; input i's block of size_i * inner floats
// A cat with a single row (along dim 0) becomes one flat copy step per input, so it still splits.

import type { Node } from '../../graph/graph.ts';
import { copyParamsBytes, writeCopyParams, type CopySource } from '../../kernels/copy.ts';
import type { BuildContext, Lowered, PlannedStep } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { nhwcShape, type TensorView } from '../../runtime/fast/views.ts';
import { normalizeAxis, numel } from '../../tensor/shape.ts';
import { ParamReader } from '../params.ts';
import { f32Only, isDense, rangeStep } from './eltwise-range.ts';

/** Storage axis of a logical axis: NHWC stores (N,H,W,C). */
const STORAGE_AXIS = [0, 3, 1, 2];

interface Piece {
  readonly view: TensorView;
  readonly len: number;
  readonly stride: number;
  readonly dstOffset: number;
}

export function lowerCat(node: Node): Lowered | undefined {
  const y = node.outputs[0];
  if (!y || node.outputs.length !== 1 || node.inputs.length < 1 || !f32Only(y, ...node.inputs)) return undefined;
  const shape = y.shape!;
  const axis = normalizeAxis(new ParamReader(node).int('dim', 0), shape.length);
  if (axis === undefined || shape.length === 0) return undefined;
  const nhwc = shape.length === 4;
  const storage = nhwc ? nhwcShape(shape) : [...shape];
  const s = nhwc ? STORAGE_AXIS[axis]! : axis;
  const outer = numel(storage.slice(0, s));
  const inner = numel(storage.slice(s + 1));
  const channels = nhwc && axis === 1;
  return {
    build(ctx) {
      const yv = ctx.view(y);
      const views = node.inputs.map((v) => ctx.view(v));
      // Away from the channel axis the blocks are contiguous only without pixel gaps.
      if (!channels && ![yv, ...views].every(isDense)) throw new Error(`${label(node)}: strided views along dim ${axis}`);
      let offset = 0;
      const pieces: Piece[] = [];
      for (const v of views) {
        const size = v.shape[axis]!;
        const len = size * inner;
        // A producer that already wrote into its slice of the output (build.ts) needs no copy.
        const inPlace = channels && v.offset === yv.offset + offset * 4 && v.pixelStride === yv.pixelStride;
        if (len > 0 && !inPlace) pieces.push({ view: v, len, stride: channels ? v.pixelStride : len, dstOffset: offset });
        offset += len;
      }
      const yStride = channels ? yv.pixelStride : offset;
      if (pieces.length === 0 || outer === 0) return [];
      if (outer === 1) return pieces.flatMap((p) => flatCopy(ctx, node, p, yv));
      const perUnit = pieces.reduce((sum, p) => sum + p.len * 8, 0);
      return rangeStep(ctx, label(node), 'f32_copy_rows', outer, perUnit, copyParamsBytes(pieces.length), (at, base) =>
        writeCopyParams(ctx.arena.memory, at, {
          y: { at: base + yv.offset, stride: yStride }, rows: outer,
          sources: pieces.map((p): CopySource => ({ src: { at: base + p.view.offset, stride: p.stride }, len: p.len, dstOffset: p.dstOffset })),
        }));
    },
  };
}

/** One input's block as a copy of `len` rows of one float (contiguous: one span, split anywhere). */
function flatCopy(ctx: BuildContext, node: Node, p: Piece, yv: TensorView): PlannedStep[] {
  return rangeStep(ctx, label(node), 'f32_copy_rows', p.len, 8, copyParamsBytes(1), (at, base) =>
    writeCopyParams(ctx.arena.memory, at, {
      y: { at: base + yv.offset + p.dstOffset * 4, stride: 1 }, rows: p.len,
      sources: [{ src: { at: base + p.view.offset, stride: 1 }, len: 1, dstOffset: 0 }],
    }));
}
