// The operator registry: a plain list of op families and one loop. Registering a type twice throws.

import { UnsupportedOpsError } from '../errors.ts';
import type { Graph, Node } from '../graph/graph.ts';
import { activationOps } from './activation.ts';
import { adaptiveAvgPool2d, adaptiveMaxPool2d } from './adaptive-pool.ts';
import { batchNorm } from './batchnorm.ts';
import { cat } from './cat.ts';
import { conv2d, convTranspose2d } from './conv.ts';
import { expression } from './expression.ts';
import { flatten } from './flatten.ts';
import { identity, tensorTo } from './identity.ts';
import { instanceNorm } from './instancenorm.ts';
import { attribute, input, output } from './io.ts';
import { layerNorm } from './layernorm.ts';
import { linear } from './linear.ts';
import { localResponseNorm } from './lrn.ts';
import { bmm, matmul, mm } from './matmul.ts';
import { onnxReshape } from './onnx-reshape.ts';
import type { BoundOp, OpDef } from './op.ts';
import { pad } from './pad.ts';
import { permute, transpose } from './permute.ts';
import { pixelShuffle } from './pixel-shuffle.ts';
import { avgPool2d, maxPool2d } from './pool.ts';
import { prelu } from './prelu.ts';
import { mean, sum } from './reduce.ts';
import { repeat } from './repeat.ts';
import { reshape } from './reshape.ts';
import { slice } from './slice.ts';
import { logSoftmax, softmax } from './softmax.ts';
import { chunk, split } from './split.ts';
import { squeeze, unsqueeze } from './squeeze.ts';
import { upsample } from './upsample.ts';
import { where } from './where.ts';
import { yoloDetect } from './yolo-detect.ts';

const FAMILIES: readonly OpDef[] = [
  input, output, attribute,
  conv2d, convTranspose2d, linear, matmul, mm, bmm, batchNorm, layerNorm,
  ...activationOps, prelu,
  maxPool2d, avgPool2d, adaptiveAvgPool2d, adaptiveMaxPool2d, mean, sum,
  upsample, softmax, logSoftmax, pad,
  identity, tensorTo, flatten, reshape, permute, transpose, squeeze, unsqueeze, slice, cat, chunk, split,
  expression,
  yoloDetect,
  // ONNX ops the PyTorch-derived families above lack (src/format/onnx/import)
  instanceNorm, localResponseNorm, pixelShuffle, repeat, where, onnxReshape,
];

export class OpRegistry {
  private readonly byType = new Map<string, OpDef>();

  constructor(families: readonly OpDef[]) {
    for (const family of families) {
      for (const type of family.types) {
        if (this.byType.has(type)) throw new Error(`operator type ${type} is registered twice`);
        this.byType.set(type, family);
      }
    }
  }

  get(type: string): OpDef | undefined {
    return this.byType.get(type);
  }

  get types(): string[] {
    return [...this.byType.keys()].sort();
  }

  /**
   * Binds every node of the graph (parsing its params once). Unsupported types fail together in one
   * UnsupportedOpsError listing each type and the nodes that use it; a bad param fails naming its node.
   */
  bindAll(graph: Graph): Map<Node, BoundOp> {
    const missing = new Map<string, string[]>();
    for (const node of graph.nodes) {
      if (!this.byType.has(node.type)) missing.set(node.type, [...(missing.get(node.type) ?? []), node.name]);
    }
    if (missing.size) throw new UnsupportedOpsError(missing);
    return new Map(graph.nodes.map((node) => [node, this.byType.get(node.type)!.bind(node)]));
  }
}

export const defaultRegistry = new OpRegistry(FAMILIES);
