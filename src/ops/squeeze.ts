// torch.squeeze (drop size-1 dims: the listed ones, or all when `dim` is absent; a listed dim whose size
// is not 1 stays, as in PyTorch) and torch.unsqueeze (insert a size-1 dim at `dim`, -rank-1 <= dim <= rank).

import { formatShape, normalizeAxis, type Shape } from '../tensor/shape.ts';
import { reshaped } from './layout.ts';
import { noMacs, type BoundOp, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** A BoundOp for ops that only change the shape, from the rule giving the output shape. */
function shapeOnly(p: ParamReader, rule: (shape: Shape) => number[]): BoundOp {
  return {
    infer(inputs) {
      p.expectInputs(inputs, 1);
      return [{ shape: rule(inputs[0]!.shape), dtype: inputs[0]!.dtype }];
    },
    macs: noMacs,
    reference(inputs) {
      p.expectInputs(inputs, 1);
      return [reshaped(inputs[0]!, rule(inputs[0]!.shape))];
    },
  };
}

export const squeeze: OpDef = {
  types: ['torch.squeeze'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const dims = p.has('dim') ? p.intList('dim') : undefined;
    return shapeOnly(p, (shape) => {
      if (!dims) return shape.filter((d) => d !== 1);
      const drop = new Set<number>();
      for (const d of dims) {
        const axis = normalizeAxis(d, Math.max(shape.length, 1));
        if (axis === undefined) p.fail(`dim=${d} is out of range for input ${formatShape(shape)}`);
        if (shape[axis] === 1) drop.add(axis);
      }
      return shape.filter((_, k) => !drop.has(k));
    });
  },
};

export const unsqueeze: OpDef = {
  types: ['torch.unsqueeze'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const dim = p.int('dim');
    return shapeOnly(p, (shape) => {
      const axis = normalizeAxis(dim, shape.length + 1);
      if (axis === undefined) p.fail(`dim=${dim} is out of range for input ${formatShape(shape)} (expected ${-shape.length - 1} to ${shape.length})`);
      return [...shape.slice(0, axis), 1, ...shape.slice(axis)];
    });
  },
};
