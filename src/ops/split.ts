// torch.chunk and torch.split: one input cut along a dim into several outputs.
//   split(s):      ceil(size / s) pieces of s, the last one smaller (at least one piece, even of size 0)
//   split([a,b,.]): pieces of exactly those sizes, which must add up to the dim
//   chunk(n):      split(ceil(size / n)), so it can give fewer than n pieces (size 5, n 4 → 2, 2, 1)

import type { Node } from '../graph/graph.ts';
import { allocate } from '../tensor/dtype.ts';
import { formatShape, normalizeAxis, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { copyBlock, elementWidth, splitAround } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** Piece sizes for one dim of `size`. */
type Pieces = (size: number) => number[];

function bySize(p: ParamReader, s: number): Pieces {
  return (size) => {
    if (s < 1 && size > 0) p.fail(`split size ${s} must be >= 1`);
    const count = Math.max(Math.ceil(size / Math.max(s, 1)), 1);
    return Array.from({ length: count }, (_, i) => (i < count - 1 ? s : size - s * (count - 1)));
  };
}

function splitOp(types: string[], pieces: (node: Node, p: ParamReader) => Pieces): OpDef {
  return {
    types,
    bind(node) {
      const p: ParamReader = new ParamReader(node);
      const dim = p.int('dim', 0);
      const sizesOf = pieces(node, p);
      const plan = (shape: Shape): { axis: number; sizes: number[] } => {
        const axis = normalizeAxis(dim, shape.length);
        if (axis === undefined) return p.fail(`dim=${dim} is out of range for input ${formatShape(shape)}`);
        const sizes = sizesOf(shape[axis]!);
        if (sizes.length !== node.outputs.length) {
          p.fail(`cutting dim ${dim} of input ${formatShape(shape)} gives ${sizes.length} pieces (${sizes.join(', ')}), but the graph wires ${node.outputs.length} outputs`);
        }
        return { axis, sizes };
      };
      return {
        infer(inputs) {
          p.expectInputs(inputs, 1);
          const x = inputs[0]!;
          const { axis, sizes } = plan(x.shape);
          return sizes.map((size) => ({ shape: x.shape.map((d, k) => (k === axis ? size : d)), dtype: x.dtype }));
        },
        macs: noMacs,
        reference(inputs) {
          p.expectInputs(inputs, 1);
          const x = inputs[0]!;
          const { axis, sizes } = plan(x.shape);
          // x seen as (outer, size, inner): piece k takes rows [start_k, start_k + size_k) of every outer block.
          const { outer, size: total, inner } = splitAround(x.shape, axis);
          const width = elementWidth(x);
          let start = 0;
          return sizes.map((size) => {
            const block = size * inner * width;
            const data = allocate(x.dtype, outer * size * inner * width);
            for (let o = 0; o < outer; o++) copyBlock(x.data, (o * total + start) * inner * width, data, o * block, block);
            start += size;
            return new Tensor(x.dtype, x.shape.map((d, k) => (k === axis ? size : d)), data);
          });
        },
      };
    },
  };
}

export const chunk = splitOp(['torch.chunk', 'Tensor.chunk'], (_node, p) => {
  const chunks = p.int('chunks');
  if (chunks < 1) p.fail(`chunks=${chunks} must be >= 1`);
  // An empty dim gives `chunks` empty pieces (aten::chunk's special case).
  return (size) => (size === 0 ? new Array<number>(chunks).fill(0) : bySize(p, Math.ceil(size / chunks))(size));
});

export const split = splitOp(['torch.split', 'Tensor.split'], (_node, p) => {
  const raw = p.raw('split_size_or_sections');
  if (raw?.kind === 'ints') {
    const sections = p.intList('split_size_or_sections');
    return (size) => {
      const sum = sections.reduce((a, b) => a + b, 0);
      if (sections.some((s) => s < 0) || sum !== size) p.fail(`split_size_or_sections=(${sections.join(',')}) adds up to ${sum}, the dim has ${size}`);
      return sections;
    };
  }
  return bySize(p, p.int('split_size_or_sections'));
});
