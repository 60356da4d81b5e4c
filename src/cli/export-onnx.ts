// `flowinfer export-onnx <model> [--bin FILE] [--opt-level N] [--input-shape 1,3,224,224] -o model.onnx`:
// the graph (optimised at the given level, 3 by default as `run` does) written as an ONNX model for the
// input shapes given (default: the file's annotations), then a one-line summary of what was written.

import { writeFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { buildOnnxModel, ONNX_OPSET } from '../format/onnx/index.ts';
import { onnx } from '../format/onnx/proto.ts';
import type { Graph } from '../graph/graph.ts';
import { DEFAULT_OPT_LEVEL, optimizeGraph, type OptLevel } from '../graph/passes/index.ts';
import { inferShapes } from '../graph/shapes.ts';
import { validateGraph } from '../graph/validate.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { formatShape } from '../tensor/shape.ts';
import { humanCount } from './format.ts';
import { fileGraph, zooGraph } from './model-source.ts';

export interface ExportOnnxOptions {
  readonly output?: string;
  readonly bin?: string;
  readonly optLevel?: OptLevel;
  readonly inputShape?: number[][];
}

export function exportOnnxCommand(spec: string, options: ExportOnnxOptions): string {
  if (!options.output) throw new UsageError('give the .onnx file to write with -o');
  const graph: Graph = zooGraph(spec) ?? fileGraph(spec, { bin: options.bin, inputShape: options.inputShape });
  validateGraph(graph);
  inferShapes(graph, defaultRegistry.bindAll(graph), options.inputShape);
  const level = options.optLevel ?? DEFAULT_OPT_LEVEL;
  if (level > 0) optimizeGraph(graph, defaultRegistry, { level, inputShapes: options.inputShape });
  const model = buildOnnxModel(graph, { inputShape: options.inputShape });
  const bytes = onnx.ModelProto.encode(model).finish();
  writeFileSync(options.output, bytes);
  const g = model.graph!;
  const ports = (kind: string, values: Graph['inputs']) => values.map((v, i) => `${kind} ${(kind === 'input' ? g.input : g.output)![i]!.name} ${formatShape(v.shape!)}`);
  return [
    `wrote ${options.output}: ${g.node!.length} ONNX nodes, ${g.initializer!.length} initializers, ${humanCount(bytes.length)}B, opset ${ONNX_OPSET}, opt level ${level}`,
    ...ports('input', graph.inputs), ...ports('output', graph.outputs),
  ].join('\n');
}
