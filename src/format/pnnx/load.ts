// Reading a model from disk: the .pnnx.param text and, beside it, the .pnnx.bin weights.

import { existsSync, readFileSync } from 'node:fs';
import { WeightError } from '../../errors.ts';
import type { Graph } from '../../graph/graph.ts';
import { bindWeights, readPnnxBin } from './bin.ts';
import { parsePnnxParam } from './parse-param.ts';

export interface LoadFilesOptions {
  /** The weights file; default: the param path with `.param` replaced by `.bin`. */
  readonly bin?: string;
  /** `required` (default): weights must load; `optional`: load them if the file exists; `none`: skip. */
  readonly weights?: 'required' | 'optional' | 'none';
}

/** `model.pnnx.param` → `model.pnnx.bin`. */
export function defaultBinPath(paramPath: string): string {
  return paramPath.endsWith('.param') ? `${paramPath.slice(0, -'.param'.length)}.bin` : `${paramPath}.bin`;
}

function needsWeights(graph: Graph): boolean {
  return graph.nodes.some((n) => [...n.weights.values()].some((w) => w.dtype !== null && w.shape.length > 0));
}

export function loadPnnxFiles(paramPath: string, options: LoadFilesOptions = {}): Graph {
  const graph = parsePnnxParam(readFileSync(paramPath), paramPath);
  const mode = options.weights ?? 'required';
  if (mode === 'none') return graph;
  const binPath = options.bin ?? defaultBinPath(paramPath);
  if (!existsSync(binPath)) {
    if (mode === 'optional' || !needsWeights(graph)) return graph;
    throw new WeightError(`${paramPath} declares weights, but the weights file ${binPath} does not exist (pass its path, or make one with \`flowinfer init-weights\`)`);
  }
  bindWeights(graph, readPnnxBin(readFileSync(binPath), binPath), binPath);
  return graph;
}
