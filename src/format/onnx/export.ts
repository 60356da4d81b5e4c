// exportOnnx: a flowinfer graph as an ONNX ModelProto (IR version 8, opset 17), weights as initializers.
//
//   1. validate the graph; every node type without an exporter fails here, all of them in one error
//   2. infer shapes (for the given input shapes, else the current ones): the model is written for them
//   3. name tensors: graph inputs and outputs after their pnnx.Input / pnnx.Output nodes (the names
//      Model.run uses), every other operand after its PNNX operand name
//   4. write each node in topological order; nodes whose params ONNX cannot express are collected and
//      fail together in one OnnxExportError
//   5. encode with onnx-proto

import { INPUT_TYPE, OUTPUT_TYPE, type Graph, type Value } from '../../graph/graph.ts';
import { topologicalOrder } from '../../graph/order.ts';
import { inferShapes, type InputShapes } from '../../graph/shapes.ts';
import { validateGraph } from '../../graph/validate.ts';
import { defaultRegistry } from '../../ops/registry.ts';
import { UsageError } from '../../errors.ts';
import { OnnxGraphBuilder } from './builder.ts';
import { NodeContext } from './context.ts';
import { Inexpressible, OnnxExportError, type ExportProblem } from './errors.ts';
import { EXPORTERS } from './ops/index.ts';
import { onnx, type ModelProto, type ValueInfoProto } from './proto.ts';
import { elementType } from './tensor.ts';
import type { Shape } from '../../tensor/shape.ts';

export const ONNX_IR_VERSION = 8;
export const ONNX_OPSET = 17;

export interface OnnxExportOptions {
  /**
   * Input shapes to export for, by position or input operand name (default: the shapes already inferred
   * on the graph, as on a loaded Model's graph, else the file's annotations).
   */
  readonly inputShape?: InputShapes;
  /** The model's producer_name (default `flowinfer`). */
  readonly producerName?: string;
  /** The graph's name (default: the graph's file). */
  readonly graphName?: string;
}

function valueInfo(name: string, v: Value): ValueInfoProto {
  const elemType = elementType(v.dtype);
  if (elemType === undefined) throw new UsageError(`graph input or output "${name}" is ${v.dtype}, which the ONNX export does not write`);
  return { name, type: { tensorType: { elemType, shape: { dim: v.shape!.map((d) => ({ dimValue: d })) } } } };
}

/** The graph as an ONNX model (see the stages above); exportOnnx encodes it. */
export function buildOnnxModel(graph: Graph, options: OnnxExportOptions = {}): ModelProto {
  validateGraph(graph);
  const unknown: ExportProblem[] = graph.nodes
    .filter((n) => n.type !== INPUT_TYPE && n.type !== OUTPUT_TYPE && !EXPORTERS.has(n.type))
    .map((node) => ({
      node,
      reason: defaultRegistry.get(node.type) ? 'no ONNX operator or composition is known for this type' : 'an operator type flowinfer does not know',
    }));
  if (unknown.length) throw new OnnxExportError(graph, unknown);
  const inferred = graph.inputs.map((v) => v.shape);
  const current = inferred.every((s) => s !== undefined) ? (inferred as Shape[]) : undefined;
  inferShapes(graph, defaultRegistry.bindAll(graph), options.inputShape ?? current);

  const b = new OnnxGraphBuilder();
  const names = new Map<Value, string>();
  const inputNodes = graph.nodes.filter((n) => n.type === INPUT_TYPE);
  const outputNodes = graph.nodes.filter((n) => n.type === OUTPUT_TYPE);
  for (const n of inputNodes) names.set(n.outputs[0]!, b.reserve(n.name));
  for (const n of outputNodes) {
    const v = n.inputs[0]!;
    if (!names.has(v)) names.set(v, b.reserve(n.name));
  }
  for (const v of graph.values.values()) if (!names.has(v)) names.set(v, b.fresh(v.name));

  const problems: ExportProblem[] = [];
  for (const node of topologicalOrder(graph)) {
    if (node.type === INPUT_TYPE) continue;
    if (node.type === OUTPUT_TYPE) {
      // An output that is also an input, or a second output of one operand, gets its own copy.
      const v = node.inputs[0]!;
      if (names.get(v) !== node.name) b.op('Identity', [names.get(v)!], {}, node.name, b.reserve(node.name));
      continue;
    }
    const complex = [...node.inputs, ...node.outputs].find((v) => elementType(v.dtype) === undefined);
    if (complex) {
      problems.push({ node, reason: `operand "${complex.name}" is ${complex.dtype}, which the ONNX export does not write` });
      continue;
    }
    try {
      EXPORTERS.get(node.type)!(new NodeContext(b, node, names));
    } catch (e) {
      if (!(e instanceof Inexpressible)) throw e;
      problems.push({ node, reason: e.reason });
    }
  }
  if (problems.length) throw new OnnxExportError(graph, problems);

  return onnx.ModelProto.create({
    irVersion: ONNX_IR_VERSION,
    opsetImport: [{ domain: '', version: ONNX_OPSET }],
    producerName: options.producerName ?? 'flowinfer',
    graph: {
      name: options.graphName ?? graph.file,
      node: b.nodes,
      initializer: b.initializers,
      input: inputNodes.map((n) => valueInfo(n.name, n.outputs[0]!)),
      output: outputNodes.map((n) => valueInfo(n.name, n.inputs[0]!)),
    },
  });
}

/** The graph as the bytes of an ONNX ModelProto (IR 8, opset 17). */
export function exportOnnx(graph: Graph, options: OnnxExportOptions = {}): Uint8Array {
  return onnx.ModelProto.encode(buildOnnxModel(graph, options)).finish();
}
