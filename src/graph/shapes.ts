// Shape inference: walk the nodes in topological order and ask each bound op for its output shapes.

import { NodeError, UsageError } from '../errors.ts';
import type { BoundOp, ShapeInfo } from '../ops/op.ts';
import { DYNAMIC, formatShape, type Shape } from '../tensor/shape.ts';
import { INPUT_TYPE, type Graph, type Node } from './graph.ts';
import { topologicalOrder } from './order.ts';

/** Shapes for the graph's inputs, by position or by input operand name; unlisted inputs keep their annotation. */
export type InputShapes = readonly Shape[] | Readonly<Record<string, Shape>>;

function boundInputShape(graph: Graph, node: Node, shapes: InputShapes | undefined): Shape | undefined {
  if (!shapes) return undefined;
  const value = node.outputs[0]!;
  if (Array.isArray(shapes)) return (shapes as readonly Shape[])[graph.inputs.indexOf(value)];
  return (shapes as Readonly<Record<string, Shape>>)[value.name];
}

function checkInputShapes(graph: Graph, shapes: InputShapes | undefined): void {
  if (!shapes) return;
  const inputs = graph.inputs;
  if (Array.isArray(shapes)) {
    if (shapes.length > inputs.length) throw new UsageError(`${shapes.length} input shapes given, but the model has ${inputs.length} input${inputs.length === 1 ? '' : 's'}`);
    return;
  }
  for (const name of Object.keys(shapes)) {
    if (!inputs.some((v) => v.name === name)) throw new UsageError(`no model input is named "${name}" (inputs: ${inputs.map((v) => v.name).join(', ')})`);
  }
}

/**
 * Sets `shape` and `dtype` on every value. An Input's shape is the bound one if given (it must agree with
 * the annotation's rank; other dims may differ: that is how a model runs at another size or batch).
 */
export function inferShapes(graph: Graph, ops: ReadonlyMap<Node, BoundOp>, inputShapes?: InputShapes): void {
  checkInputShapes(graph, inputShapes);
  for (const node of topologicalOrder(graph)) {
    const op = ops.get(node);
    if (!op) throw new NodeError(node, 'has no bound operator (the graph changed after binding)');
    let outputs: ShapeInfo[];
    const bound = node.type === INPUT_TYPE ? boundInputShape(graph, node, inputShapes) : undefined;
    if (bound) {
      const a = node.outputs[0]!.annotation;
      if (bound.some((d) => !Number.isInteger(d) || d < 1)) throw new UsageError(`input "${node.outputs[0]!.name}": shape ${formatShape(bound)} must have positive integer dims`);
      if (a && a.shape.length !== bound.length) {
        throw new UsageError(`input "${node.outputs[0]!.name}" is annotated ${formatShape(a.shape)}; a shape of rank ${bound.length} ${formatShape(bound)} cannot replace it`);
      }
      outputs = [{ shape: [...bound], dtype: a?.dtype ?? 'f32' }];
    } else {
      const inputs = node.inputs.map((v) => {
        if (!v.shape) throw new NodeError(node, `input operand "${v.name}" has no inferred shape`);
        return { shape: v.shape, dtype: v.dtype };
      });
      outputs = op.infer(inputs);
    }
    if (outputs.length !== node.outputs.length) {
      throw new NodeError(node, `produces ${outputs.length} outputs, but the graph wires ${node.outputs.length}`);
    }
    node.outputs.forEach((v, i) => {
      v.shape = outputs[i]!.shape;
      v.dtype = outputs[i]!.dtype;
    });
  }
}

/** Operands whose inferred shape disagrees with the file's annotation (dynamic dims match anything). */
export function annotationMismatches(graph: Graph): string[] {
  const problems: string[] = [];
  for (const v of graph.values.values()) {
    const a = v.annotation;
    if (!a || !v.shape) continue;
    const same = a.shape.length === v.shape.length && a.shape.every((d, i) => d === DYNAMIC || d === v.shape![i]);
    if (!same) problems.push(`operand "${v.name}": annotated ${formatShape(a.shape)}, inferred ${formatShape(v.shape)}`);
  }
  return problems;
}
