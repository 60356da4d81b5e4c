// Opening a model for pictures (run --image, video, bench): one RGB input (N, 3, H, W) at the size asked
// for (--size 224 or WxH) or the size the model declares, and a batch of N; plus what to make of its
// output (classifier, detector) and the pixel normalisation that goes with it.

import { UsageError } from '../errors.ts';
import type { OptLevel } from '../graph/passes/index.ts';
import { IMAGENET, UNIT, normalisation, type Normalisation } from '../media/pixels.ts';
import { readLabels } from '../post/labels.ts';
import { PostProcessor } from '../post/summarize.ts';
import { loadModel } from '../runtime/load.ts';
import type { Model } from '../runtime/model.ts';
import { fileGraph, zooGraph } from './model-source.ts';

export interface PixelModelOptions {
  readonly bin?: string;
  readonly engine?: 'fast' | 'reference';
  readonly optLevel?: OptLevel;
  readonly threads?: number;
  /** Frames in flight (arena slots). */
  readonly slots?: number;
  /** "224" (square) or "WxH". */
  readonly size?: string;
  readonly batch?: number;
  readonly mean?: string;
  readonly std?: string;
  readonly labels?: string;
  readonly top?: number;
  readonly conf?: number;
  readonly iou?: number;
  readonly maxDet?: number;
}

export interface PixelModel {
  readonly model: Model;
  readonly width: number;
  readonly height: number;
  readonly batch: number;
  readonly post: PostProcessor;
  readonly normalisation: Normalisation;
}

/** "224" → 224x224; "320x240" → width 320, height 240. */
export function parseSize(text: string): { width: number; height: number } {
  const m = /^(\d+)(?:[x,](\d+))?$/.exec(text.trim());
  const width = m ? Number(m[1]) : NaN;
  const height = m ? Number(m[2] ?? m[1]) : NaN;
  if (!(width >= 1 && height >= 1)) throw new UsageError(`--size ${text}: expected pixels, e.g. 224 or 320x240 (width x height)`);
  return { width, height };
}

function positive(name: string, v: number | undefined, fallback: number): number {
  const n = v ?? fallback;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} ${String(v)}: expected a positive integer`);
  return n;
}

export async function openPixelModel(spec: string, options: PixelModelOptions): Promise<PixelModel> {
  const batch = positive('--batch', options.batch, 1);
  // Options are checked before the model loads, so that a typo does not cost a model build.
  const labels = options.labels ? readLabels(options.labels) : undefined;
  normalisation(UNIT, options.mean, options.std);
  const size = options.size === undefined ? undefined : parseSize(options.size);
  let graph;
  try {
    // A zoo model is built square at --size; another shape is given as the input shape below.
    graph = zooGraph(spec, { batch, ...(size && size.width === size.height ? { size: size.width } : {}) })
      ?? fileGraph(spec, { bin: options.bin, ...(size ? { inputShape: [[batch, 3, size.height, size.width]] } : {}) });
  } catch (e) {
    // The zoo's builders state their limits as RangeErrors ("size 100 must be a multiple of 32").
    if (e instanceof RangeError) throw new UsageError(`${spec}: ${e.message}`);
    throw e;
  }
  if (graph.inputs.length !== 1) throw new UsageError(`${spec} takes ${graph.inputs.length} inputs; pictures feed models with one (N, 3, H, W) input`);
  const declared = graph.inputs[0]!.annotation?.shape ?? graph.inputs[0]!.shape;
  const height = size?.height ?? declared?.[2];
  const width = size?.width ?? declared?.[3];
  if (declared && (declared.length !== 4 || (declared[1] !== 3 && declared[1] !== -1))) {
    throw new UsageError(`${spec}: its input is (${declared.join(',')}); pictures feed an (N, 3, H, W) input`);
  }
  if (!(height! > 0 && width! > 0)) throw new UsageError(`${spec} does not declare its input size: give --size (e.g. 224 or 320x240)`);
  const model = await loadModel(graph, {
    engine: options.engine, optLevel: options.optLevel, threads: options.threads, slots: options.slots,
    inputShape: [[batch, 3, height!, width!]],
  });
  const post = new PostProcessor(model.outputs, {
    top: options.top, confThreshold: options.conf, iouThreshold: options.iou, maxDetections: options.maxDet,
    labels,
  });
  // YOLOv5 takes pixels / 255; torchvision classifiers take ImageNet-normalised pixels.
  const defaults = post.kind.kind === 'detect' ? UNIT : IMAGENET;
  return { model, width: width!, height: height!, batch, post, normalisation: normalisation(defaults, options.mean, options.std) };
}
