// The fallback lowering: any node runs its reference implementation inside one worker, on NCHW copies
// of its inputs read from the arena (the runner converts layouts). Correct for every op; fast kernels
// replace it node type by node type.

import type { Node } from '../../graph/graph.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { DTYPE_BYTES } from '../../tensor/dtype.ts';
import { numel } from '../../tensor/shape.ts';
import type { NodeData } from '../../workers/protocol.ts';

export function lowerFallback(node: Node): Lowered {
  return {
    build(ctx) {
      // Weights go into the arena once, so that every worker reads the same bytes.
      const weights = [...node.weights].map(([key, w]) => {
        let offset: number | undefined;
        if (w.data && w.dtype !== null) {
          const bytes = numel(w.shape) * DTYPE_BYTES[w.dtype];
          offset = ctx.arena.alloc(bytes, 16);
          new Uint8Array(ctx.arena.buffer, offset, bytes).set(new Uint8Array(w.data.buffer, w.data.byteOffset, bytes));
        }
        return [key, { dtype: w.dtype, shape: w.shape, offset }] as const;
      });
      const data: NodeData = { type: node.type, name: node.name, params: [...node.params], weights, source: node.source };
      const step = { kind: 'fallback', label: label(node), node: data, inputs: node.inputs.map((v) => ctx.view(v)), outputs: node.outputs.map((v) => ctx.view(v)) } as const;
      return [{ step, tiles: 1 }];
    },
  };
}
