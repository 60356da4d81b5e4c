// The converters, by ONNX op type (default domain): one list of families and one loop; a type claimed
// twice throws. Every op here follows its definition at the model's opset, legacy forms included.

import type { Converter } from '../context.ts';
import { ACTIVATIONS } from './activation.ts';
import { CONSTANTS } from './constants.ts';
import { conv, convTranspose } from './conv.ts';
import { ELEMENTWISE } from './elementwise.ts';
import { concat, depthToSpace, expand, gather, slice, split, squeeze, tile, transpose, unsqueeze } from './layout.ts';
import { gemm, matMul } from './linear.ts';
import { batchNormalization, instanceNormalization, layerNorm, lrn } from './norm.ts';
import { LAYER_NORM } from '../patterns.ts';
import { pad } from './pad.ts';
import { POOLS } from './pool.ts';
import { REDUCTIONS } from './reduce.ts';
import { flatten, reshape } from './reshape.ts';
import { resize } from './resize.ts';

const FAMILIES: ReadonlyArray<ReadonlyArray<[string, Converter]>> = [
  CONSTANTS, ELEMENTWISE, ACTIVATIONS, POOLS, REDUCTIONS,
  [['Conv', conv], ['ConvTranspose', convTranspose], ['Gemm', gemm], ['MatMul', matMul]],
  [['BatchNormalization', batchNormalization], ['InstanceNormalization', instanceNormalization], ['LRN', lrn], [LAYER_NORM, layerNorm]],
  [['Reshape', reshape], ['Flatten', flatten], ['Transpose', transpose], ['Concat', concat], ['Split', split], ['Slice', slice]],
  [['Squeeze', squeeze], ['Unsqueeze', unsqueeze], ['Gather', gather], ['Tile', tile], ['DepthToSpace', depthToSpace], ['Expand', expand]],
  [['Pad', pad], ['Resize', resize], ['Upsample', resize]],
];

function buildTable(): ReadonlyMap<string, Converter> {
  const table = new Map<string, Converter>();
  for (const family of FAMILIES) {
    for (const [opType, converter] of family) {
      if (table.has(opType)) throw new Error(`ONNX converter for ${opType} is registered twice`);
      table.set(opType, converter);
    }
  }
  return table;
}

export const CONVERTERS: ReadonlyMap<string, Converter> = buildTable();
