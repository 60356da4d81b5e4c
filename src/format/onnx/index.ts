// ONNX export: a flowinfer graph as an ONNX model (IR 8, opset 17) that onnxruntime runs.
export { buildOnnxModel, exportOnnx, ONNX_IR_VERSION, ONNX_OPSET, type OnnxExportOptions } from './export.ts';
export { OnnxExportError, type ExportProblem } from './errors.ts';
