// What a CLI <model> argument names: a .pnnx.param file, an .onnx file, or `zoo:<name>` for a model built in
// code with seeded weights (zoo:resnet18, zoo:mobilenet_v2, zoo:yolov5s), which works on a fresh clone.

import { UsageError } from '../errors.ts';
import type { Graph } from '../graph/graph.ts';
import type { InputShapes } from '../graph/shapes.ts';
import { isOnnxPath, loadOnnxFile } from '../format/onnx/import/index.ts';
import { loadPnnxFiles, type LoadFilesOptions } from '../format/pnnx/load.ts';
import { loadModel, type LoadOptions } from '../runtime/load.ts';
import type { Model } from '../runtime/model.ts';
import { mobilenetV2, resnet18, yolov5s } from '../zoo/index.ts';
import type { ZooOptions } from '../zoo/options.ts';

export const ZOO: Readonly<Record<string, (o: ZooOptions) => Graph>> = {
  resnet18,
  mobilenet_v2: mobilenetV2,
  yolov5s,
};

/** The zoo graph for `zoo:<name>`, or undefined for a file path. */
export function zooGraph(spec: string, options: ZooOptions = {}): Graph | undefined {
  if (!spec.startsWith('zoo:')) return undefined;
  const build = ZOO[spec.slice(4)];
  if (!build) throw new UsageError(`unknown zoo model "${spec}" (zoo: ${Object.keys(ZOO).map((k) => `zoo:${k}`).join(', ')})`);
  return build(options);
}

export async function openModel(spec: string, options: LoadOptions & ZooOptions = {}): Promise<Model> {
  return loadModel(zooGraph(spec, options) ?? spec, options);
}

/**
 * The graph of a model file: an .onnx model (imported for `inputShape` when it has dynamic dims), else a
 * .pnnx.param with its weights.
 */
export function fileGraph(path: string, options: LoadFilesOptions & { readonly inputShape?: InputShapes } = {}): Graph {
  return isOnnxPath(path) ? loadOnnxFile(path, { inputShape: options.inputShape }) : loadPnnxFiles(path, options);
}
