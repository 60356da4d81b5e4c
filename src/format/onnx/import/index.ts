// ONNX import: an .onnx model as a flowinfer graph of PNNX ops (opsets 6 to 21).
import { readFileSync } from 'node:fs';
import type { Graph } from '../../../graph/graph.ts';
import { importOnnx, type OnnxImportOptions } from './import.ts';

export { importOnnx, importOnnxModel, DEFAULT_SIZE, MAX_OPSET, MIN_OPSET, type OnnxImport, type OnnxImportOptions } from './import.ts';
export { OnnxImportError, OnnxModelError, type ImportProblem } from './errors.ts';
export { tensorFromProto } from './tensor.ts';

/** Paths that name an ONNX model. */
export const isOnnxPath = (path: string): boolean => path.toLowerCase().endsWith('.onnx');

/** Reads and imports an .onnx file. */
export function loadOnnxFile(path: string, options: Omit<OnnxImportOptions, 'file'> = {}): Graph {
  return importOnnx(readFileSync(path), { ...options, file: path });
}
