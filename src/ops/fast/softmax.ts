// Softmax and log-softmax along the innermost storage dim on f32_softmax_rows: dim 1 (channels) of an
// NHWC tensor, or a plain tensor's last dim (or any dim followed only by 1s). Other dims stay on the
// fallback.

import type { Node } from '../../graph/graph.ts';
import { ROW_PARAMS_BYTES } from '../../kernels/abi.ts';
import { writeSoftmaxParams } from '../../kernels/softmax.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { normalizeAxis, numel, sameShape } from '../../tensor/shape.ts';
import { ParamReader } from '../params.ts';
import { f32Only, rangeStep, rowsOf } from './eltwise-range.ts';

const LOG_TYPES = new Set(['nn.LogSoftmax', 'F.log_softmax', 'torch.log_softmax']);

export function lowerSoftmax(node: Node): Lowered | undefined {
  const x = node.inputs[0];
  const y = node.outputs[0];
  if (!x || !y || node.inputs.length !== 1 || !f32Only(x, y) || !sameShape(x.shape!, y.shape!)) return undefined;
  const shape = x.shape!;
  if (shape.length === 0 || numel(shape) === 0) return undefined;
  const axis = normalizeAxis(new ParamReader(node).int('dim'), shape.length);
  if (axis === undefined) return undefined;
  const innermost = shape.length === 4 ? axis === 1 : numel(shape.slice(axis + 1)) === 1;
  if (!innermost) return undefined;
  const log = LOG_TYPES.has(node.type);
  return {
    build(ctx) {
      const xv = ctx.view(x);
      const yv = ctx.view(y);
      const size = shape[axis]!;
      // Plain: rows of `size` (the dims after the axis are 1s); NHWC: pixels of C.
      const xr = xv.layout === 'nhwc' ? rowsOf(xv) : { rows: numel(shape) / size, stride: size };
      const yr = yv.layout === 'nhwc' ? rowsOf(yv) : { rows: numel(shape) / size, stride: size };
      // Three passes and an exp per float: ~100 streamed bytes' worth per float (bench/kernels/eltwise.ts).
      return rangeStep(ctx, label(node), 'f32_softmax_rows', yr.rows, size * 100, ROW_PARAMS_BYTES, (at, base) =>
        writeSoftmaxParams(ctx.arena.memory, at, {
          x: { at: base + xv.offset, stride: xr.stride }, y: { at: base + yv.offset, stride: yr.stride }, rows: yr.rows, c: size, log,
        }));
    },
  };
}
