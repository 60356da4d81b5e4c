// flowinfer's public API.
export * from './errors.ts';
export { Tensor } from './tensor/tensor.ts';
export type { DType } from './tensor/dtype.ts';
export type { Shape } from './tensor/shape.ts';
export { loadModel, type LoadOptions } from './runtime/load.ts';
export { Model } from './runtime/model.ts';
export type { ModelInputs, ModelOutputs, TensorInfo } from './runtime/io.ts';
export { Graph, Node, Value } from './graph/graph.ts';
export { validateGraph } from './graph/validate.ts';
export { topologicalOrder } from './graph/order.ts';
export { inferShapes, type InputShapes } from './graph/shapes.ts';
export { summarize } from './graph/summary.ts';
export { toDot } from './graph/dot.ts';
export { parsePnnxParam, printPnnxParam, readPnnxBin, writePnnxBin, bindWeights, loadPnnxFiles } from './format/pnnx/index.ts';
export { defaultRegistry, OpRegistry } from './ops/registry.ts';
export type { OpDef, BoundOp, ShapeInfo } from './ops/op.ts';
export { resnet18, mobilenetV2, yolov5s, initWeights, GraphBuilder } from './zoo/index.ts';
export * as expr from './expr/index.ts';
