// What a model's first output means, and one frame's outputs turned into results worth printing or
// writing: top-k classes for a classifier (N, classes), boxes after decoding and NMS for a YOLOv5-style
// detector (N, boxes, 5 + classes), text boxes for a text detector's probability map (N, 1, H, W:
// PP-OCR's DB detector), and a numeric summary for anything else.

import type { ModelOutputs, TensorInfo } from '../runtime/io.ts';
import { scaleBoxes } from './boxes.ts';
import { probabilities, topK } from './classify.ts';
import { defaultLabels } from './labels.ts';
import { textRegions } from './text-regions.ts';
import { detectBoxes, type YoloOptions } from './yolo.ts';

export type OutputKind =
  | { readonly kind: 'detect'; readonly rows: number; readonly no: number; readonly classes: number }
  | { readonly kind: 'classify'; readonly classes: number }
  | { readonly kind: 'text' }
  | { readonly kind: 'raw' };

export function outputKind(shape: readonly number[]): OutputKind {
  if (shape.length === 4 && shape[1] === 1) return { kind: 'text' };
  if (shape.length === 3 && shape[2]! >= 6) return { kind: 'detect', rows: shape[1]!, no: shape[2]!, classes: shape[2]! - 5 };
  if (shape.length === 2 && shape[1]! >= 1) return { kind: 'classify', classes: shape[1]! };
  return { kind: 'raw' };
}

export interface LabelledScore {
  readonly classId: number;
  readonly label?: string;
  readonly score: number;
}

export interface LabelledBox extends LabelledScore {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

export interface OutputStats {
  readonly shape: readonly number[];
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

/** One image's results: exactly one of the three is set, by the model's output kind. */
export interface ImageResult {
  readonly top?: LabelledScore[];
  readonly boxes?: LabelledBox[];
  readonly outputs?: Record<string, OutputStats>;
}

export interface PostOptions extends YoloOptions {
  /** Classes to report for a classifier (default 5). */
  readonly top?: number;
  readonly labels?: readonly string[];
}

/** Where boxes go: from the model's input size to the image's (both in pixels). */
export interface Geometry {
  readonly inputWidth: number;
  readonly inputHeight: number;
  readonly width: number;
  readonly height: number;
}

export class PostProcessor {
  readonly kind: OutputKind;
  readonly labels: readonly string[] | undefined;

  constructor(
    private readonly outputs: readonly TensorInfo[],
    private readonly options: PostOptions = {},
  ) {
    this.kind = outputKind(outputs[0]!.shape);
    this.labels = this.kind.kind === 'raw' || this.kind.kind === 'text' ? undefined : defaultLabels(this.kind.kind, this.kind.classes, options.labels);
  }

  /** The results of image `b` of a batch of outputs. */
  image(outputs: ModelOutputs, b: number, geometry: Geometry): ImageResult {
    const first = outputs[this.outputs[0]!.name]!;
    const label = (classId: number) => (this.labels?.[classId] !== undefined ? { label: this.labels[classId] } : {});
    if (this.kind.kind === 'detect') {
      const { rows, no } = this.kind;
      const boxes = detectBoxes(first.f32, rows, no, b, this.options);
      const sx = geometry.width / geometry.inputWidth;
      const sy = geometry.height / geometry.inputHeight;
      return { boxes: scaleBoxes(boxes, sx, sy, geometry.width, geometry.height).map((d) => ({ ...d, ...label(d.classId) })) };
    }
    if (this.kind.kind === 'text') {
      const [h, w] = first.shape.slice(2) as [number, number];
      const regions = textRegions(first.f32, w, h, { scaleX: geometry.width / w, scaleY: geometry.height / h }, b * h * w);
      return { boxes: regions.map((r) => ({ x1: r.x1, y1: r.y1, x2: r.x2, y2: r.y2, score: r.score, classId: 0, label: 'text' })) };
    }
    if (this.kind.kind === 'classify') {
      const n = this.kind.classes;
      const probs = probabilities(first.f32.subarray(b * n, (b + 1) * n));
      return { top: topK(probs, Math.min(n, this.options.top ?? 5)).map((s) => ({ ...s, ...label(s.classId) })) };
    }
    return {
      outputs: Object.fromEntries(Object.entries(outputs).map(([name, t]) => {
        const each = t.f32.length / (t.shape[0] ?? 1);
        return [name, stats([1, ...t.shape.slice(1)], t.f32.subarray(b * each, (b + 1) * each))];
      })),
    };
  }
}

function stats(shape: readonly number[], d: Float32Array): OutputStats {
  let min = Infinity, max = -Infinity, sum = 0;
  for (const v of d) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  return { shape, min, max, mean: d.length ? sum / d.length : NaN };
}
