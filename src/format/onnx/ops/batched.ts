// ONNX's Conv, ConvTranspose and pooling ops need a batch dim; PyTorch also takes unbatched (C,H,W)
// inputs. Those get an Unsqueeze before the op and a Squeeze after it.

import type { NodeContext } from '../context.ts';

/**
 * Runs `body` on a 4-D view of input 0 and returns its result; with `last`, the final tensor is the
 * node's output. `body` gets the name its own result should take (undefined: a fresh one).
 */
export function batched(ctx: NodeContext, last: boolean, body: (x: string, out: string | undefined) => string): string {
  const { b, base } = ctx;
  if (ctx.inputShape(0).length === 4) return body(ctx.input(0), last ? ctx.output() : undefined);
  const axis0 = b.i64(`${base}.batch_axis`, [0]);
  const y = body(b.op('Unsqueeze', [ctx.input(0), axis0], {}, base), undefined);
  return b.op('Squeeze', [y, axis0], {}, base, last ? ctx.output() : undefined);
}
