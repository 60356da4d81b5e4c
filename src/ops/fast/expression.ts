// pnnx.Expression on the fast path: the expression compiler's fused loop, run by the workers over ranges
// of the output. With an NHWC (rank-4) output the shapes are given to the compiler in storage order
// (N,H,W,C): broadcasting commutes with permuting every operand's axes the same way, so the loop reads the
// arena as it is. An operand whose plain storage order is not that order keeps the node on the fallback.

import { compileExpression, parseExpression, type ParsedExpression } from '../../expr/index.ts';
import type { Node } from '../../graph/graph.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { nhwcShape, type TensorView } from '../../runtime/fast/views.ts';
import { numel, type Shape } from '../../tensor/shape.ts';

/** Elements per tile: big enough that a tile outlasts its dispatch, small enough to balance two threads. */
export const MIN_TILE = 16384;

/** The operand's shape in the output's storage order, or undefined if its bytes are not in that order. */
export function storageShape(shape: Shape, outRank: number): Shape | undefined {
  if (outRank !== 4) return shape;
  if (shape.length === 4) return nhwcShape(shape);
  const padded = [...new Array<number>(4 - shape.length).fill(1), ...shape];
  // Plain storage is row-major in (padded) NCHW; it matches NHWC order if its non-1 dims keep their order.
  const positions = [0, 3, 1, 2]; // where N, C, H, W land in (N,H,W,C)
  const used = padded.map((d, i) => (d === 1 ? -1 : positions[i]!)).filter((p) => p >= 0);
  return used.every((p, i) => i === 0 || used[i - 1]! < p) ? nhwcShape(padded) : undefined;
}

/** The parsed expression of a node with f32 operands in the output's storage order, or undefined. */
export function expressionOperands(node: Node): { readonly expr: ParsedExpression; readonly shapes: Shape[] } | undefined {
  const out = node.outputs[0]!;
  if (out.dtype !== 'f32' || node.inputs.some((v) => v.dtype !== 'f32')) return undefined;
  const shapes = node.inputs.map((v) => storageShape(v.shape!, out.shape!.length));
  if (shapes.some((s) => s === undefined)) return undefined;
  const text = node.params.get('expr');
  if (text?.kind !== 'string') return undefined;
  return { expr: parseExpression(text.value, { inputCount: node.inputs.length }), shapes: shapes as Shape[] };
}

/** The generated loops assume contiguous storage: no strided channel slices. */
export function assertDense(node: Node, views: readonly TensorView[]): void {
  if (views.some((v) => v.layout === 'nhwc' && v.pixelStride !== v.shape[1])) throw new Error(`${label(node)}: strided operands`);
}

export function lowerExpression(node: Node): Lowered | undefined {
  const operands = expressionOperands(node);
  if (!operands) return undefined;
  const out = node.outputs[0]!;
  const compiled = compileExpression(operands.expr, operands.shapes);
  const size = numel(out.shape!);
  return {
    build(ctx) {
      const views = node.inputs.map((v) => ctx.view(v));
      const output = ctx.view(out);
      assertDense(node, [...views, output]);
      const perTile = Math.max(MIN_TILE, Math.ceil(size / (ctx.threads * 4)));
      return [{ step: { kind: 'expr', label: label(node), source: compiled.source, inputs: views, output, perTile }, tiles: Math.ceil(size / perTile) }];
    },
  };
}
