// The loop nest of a fused elementwise kernel: output dims with size-1 dims dropped and neighbours
// merged wherever every input walks them contiguously (TensorIterator's coalescing), so a same-shape
// add is one flat loop and (1,C,1,1) * (1,C,H,W) is C rows of H*W.

import type { Expr } from './ast.ts';
import { numel, stridesOf, type Shape } from '../tensor/shape.ts';

export interface LoopPlan {
  /** Loop extents, outermost first; at least one (a single-element output loops once). */
  readonly dims: readonly number[];
  /** strides[input][dim]: elements to step in that input per step of the loop dim; 0 where it broadcasts. */
  readonly strides: readonly (readonly number[])[];
}

export function planLoops(outShape: Shape, inputShapes: readonly Shape[]): LoopPlan {
  const kept = outShape.map((_, d) => d).filter((d) => outShape[d] !== 1);
  const strideTable = inputShapes.map((shape) => {
    const own = stridesOf(shape);
    const lead = outShape.length - shape.length;
    return kept.map((d) => (d >= lead && shape[d - lead] !== 1 ? own[d - lead]! : 0));
  });

  // Merge from the innermost dim outwards: dim d joins the running (inner) one when each input's stride
  // over d equals its inner stride times the inner extent.
  const dims: number[] = [];
  const strides: number[][] = inputShapes.map(() => []);
  for (let k = kept.length - 1; k >= 0; k--) {
    const extent = outShape[kept[k]!]!;
    const merges = dims.length > 0 && strideTable.every((s, j) => s[k] === strides[j]![0]! * dims[0]!);
    if (merges) {
      dims[0] = dims[0]! * extent;
    } else {
      dims.unshift(extent);
      strideTable.forEach((s, j) => strides[j]!.unshift(s[k]!));
    }
  }
  if (dims.length === 0 || numel(outShape) === 0) return { dims: [numel(outShape)], strides: inputShapes.map(() => [0]) };
  return { dims, strides };
}

/** The loop nest of an expression: operands seen only by size() contribute their shape, not data, and never broadcast. */
export function planExpressionLoops(postorder: readonly Expr[], outShape: Shape, inputShapes: readonly Shape[]): LoopPlan {
  const sized = new Set(postorder.flatMap((node) => (node.kind === 'call' && node.fn === 'size' ? [node.args[0]] : [])));
  const read = new Set(postorder.flatMap((node) => (node.kind === 'operand' && !sized.has(node) ? [node.index] : [])));
  return planLoops(outShape, inputShapes.map((shape, j) => (read.has(j) ? shape : [])));
}

/** Where input j is loaded: 1 once per call (broadcast everywhere), 2 once per row (broadcast along the inner dim), 3 per element. */
export function operandLevel(loops: LoopPlan, j: number): 1 | 2 | 3 {
  const s = loops.strides[j]!;
  const m = loops.dims.length;
  if (s.every((x) => x === 0)) return 1;
  if (s[m - 1] === 0) return 2;
  if (s[m - 1] !== 1) throw new Error(`internal: input ${j} has inner stride ${s[m - 1]}`);
  return 3;
}
