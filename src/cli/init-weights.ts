// `flowinfer init-weights <model.param> --seed 1 -o <model.pnnx.bin>`.

import { writeFileSync } from 'node:fs';
import { writePnnxBin } from '../format/pnnx/bin.ts';
import { defaultBinPath, loadPnnxFiles } from '../format/pnnx/load.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { weightCount } from '../graph/summary.ts';
import { initWeights } from '../zoo/init-weights.ts';
import { humanCount } from './format.ts';

export function initWeightsCommand(paramPath: string, options: { seed: number; output?: string }): string {
  const graph = loadPnnxFiles(paramPath, { weights: 'none' });
  defaultRegistry.bindAll(graph);
  initWeights(graph, defaultRegistry, options.seed);
  const out = options.output ?? defaultBinPath(paramPath);
  const bytes = writePnnxBin(graph);
  writeFileSync(out, bytes);
  const params = graph.nodes.reduce((s, n) => s + weightCount(n), 0);
  return `wrote ${out}: ${humanCount(params)} weights (seed ${options.seed}), ${(bytes.length / 2 ** 20).toFixed(1)} MiB`;
}
