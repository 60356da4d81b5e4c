// Tensor.permute / torch.permute (dims) and torch.transpose / Tensor.transpose (dim0, dim1): reorder dims.
// Negative dims count from the end. The reference materialises the permuted tensor in row-major order.

import { formatShape, normalizeAxis } from '../tensor/shape.ts';
import { permuted } from './layout.ts';
import { noMacs, type BoundOp, type OpDef, type ShapeInfo } from './op.ts';
import { ParamReader } from './params.ts';

/** A BoundOp from a rule giving, for an input rank, the permutation (output dim k = input dim perm[k]). */
function permuteOp(p: ParamReader, permutation: (rank: number, x: ShapeInfo) => number[]): BoundOp {
  return {
    infer(inputs) {
      p.expectInputs(inputs, 1);
      const x = inputs[0]!;
      return [{ shape: permutation(x.shape.length, x).map((d) => x.shape[d]!), dtype: x.dtype }];
    },
    macs: noMacs,
    reference(inputs) {
      p.expectInputs(inputs, 1);
      return [permuted(inputs[0]!, permutation(inputs[0]!.rank, inputs[0]!))];
    },
  };
}

export const permute: OpDef = {
  types: ['Tensor.permute', 'torch.permute'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const dims = p.intList('dims');
    return permuteOp(p, (rank, x) => {
      const perm = dims.map((d) => normalizeAxis(d, rank) ?? -1);
      const isPermutation = perm.length === rank && perm.every((d, i) => d >= 0 && perm.indexOf(d) === i);
      if (!isPermutation) p.fail(`dims=(${dims.join(',')}) is not a permutation of the dims of input ${formatShape(x.shape)}`);
      return perm;
    });
  },
};

export const transpose: OpDef = {
  types: ['torch.transpose', 'Tensor.transpose'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const dim0 = p.int('dim0');
    const dim1 = p.int('dim1');
    return permuteOp(p, (rank, x) => {
      // A 0-d tensor transposes with dims 0/-1, as in PyTorch.
      const a = normalizeAxis(dim0, Math.max(rank, 1));
      const b = normalizeAxis(dim1, Math.max(rank, 1));
      if (a === undefined || b === undefined) p.fail(`dim0=${dim0}, dim1=${dim1} are out of range for input ${formatShape(x.shape)}`);
      const perm = Array.from({ length: rank }, (_, i) => i);
      if (rank > 0) [perm[a], perm[b]] = [b, a];
      return perm;
    });
  },
};
