// The exporters, one list of families and one loop; a type claimed twice throws. Graph boundaries
// (pnnx.Input / pnnx.Output) are handled by export.ts, not here.

import type { ExportFamily, OpExporter } from '../context.ts';
import { activationExport } from './activation.ts';
import { convExport, convTransposeExport } from './conv.ts';
import { expressionExport } from './expression.ts';
import { flattenExport, identityExport, permuteExport, reshapeExport, squeezeExport, tensorToExport, transposeExport, unsqueezeExport } from './layout.ts';
import { linearExport, matmulExport } from './linear.ts';
import { attributeExport, padExport, preluExport, reduceExports, softmaxExports } from './misc.ts';
import { batchNormExport, layerNormExport } from './norm.ts';
import { adaptiveAvgPoolExport, adaptiveMaxPoolExport, avgPoolExport, maxPoolExport } from './pool.ts';
import { resizeExport } from './resize.ts';
import { catExport, sliceExport, splitExport } from './slicing.ts';
import { yoloDetectExport } from './yolo-detect.ts';

const FAMILIES: readonly ExportFamily[] = [
  attributeExport,
  convExport, convTransposeExport, linearExport, matmulExport, batchNormExport, layerNormExport,
  activationExport, preluExport,
  maxPoolExport, avgPoolExport, adaptiveAvgPoolExport, adaptiveMaxPoolExport, ...reduceExports,
  resizeExport, ...softmaxExports, padExport,
  identityExport, tensorToExport, flattenExport, reshapeExport, permuteExport, transposeExport, squeezeExport, unsqueezeExport,
  sliceExport, catExport, splitExport,
  expressionExport,
  yoloDetectExport,
];

function buildTable(): ReadonlyMap<string, OpExporter> {
  const table = new Map<string, OpExporter>();
  for (const family of FAMILIES) {
    for (const type of family.types) {
      if (table.has(type)) throw new Error(`ONNX exporter for ${type} is registered twice`);
      table.set(type, family.export);
    }
  }
  return table;
}

export const EXPORTERS: ReadonlyMap<string, OpExporter> = buildTable();
