// Class-aware greedy non-maximum suppression, as torchvision's batched_nms (which YOLOv5 calls): boxes
// only suppress boxes of their own class. Highest score first; ties keep their input order.

import { iou, type Detection } from './boxes.ts';

export interface NmsOptions {
  /** A box overlapping a kept box of its class by more than this IoU is dropped (YOLOv5: 0.45). */
  readonly iouThreshold?: number;
  /** Keep at most this many boxes over all classes (default 300). */
  readonly maxDetections?: number;
}

export function nms<T extends Detection>(detections: readonly T[], options: NmsOptions = {}): T[] {
  const threshold = options.iouThreshold ?? 0.45;
  const max = options.maxDetections ?? 300;
  const scores = Float64Array.from(detections, (d) => d.score);
  const order = Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b);
  // Kept boxes by class: each candidate is compared only with its own class.
  const keptByClass = new Map<number, T[]>();
  const kept: T[] = [];
  for (const i of order) {
    if (kept.length >= max) break;
    const d = detections[i]!;
    const same = keptByClass.get(d.classId);
    if (same?.some((k) => iou(k, d) > threshold)) continue;
    if (same) same.push(d);
    else keptByClass.set(d.classId, [d]);
    kept.push(d);
  }
  return kept;
}
