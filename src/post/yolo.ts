// Decoding a YOLOv5 Detect output (N, boxes, 5 + classes): per row (cx, cy, w, h) in input pixels, then
// objectness, then one score per class, all already through the sigmoid (see src/ops/yolo-decode.ts).
// As YOLOv5's non_max_suppression: a row's confidence is objectness × its best class score, rows at or
// under the threshold go, the rest become corner boxes and meet class-aware NMS.

import type { Detection } from './boxes.ts';
import { nms, type NmsOptions } from './nms.ts';

export interface YoloOptions extends NmsOptions {
  /** Keep boxes whose objectness × class score is above this (YOLOv5: 0.25). */
  readonly confThreshold?: number;
}

/** The candidate boxes of image `b` of the output `data` (N, rows, no), before NMS. */
export function decodeYolo(data: Float32Array, rows: number, no: number, b = 0, confThreshold = 0.25): Detection[] {
  if (no < 6) throw new RangeError(`a YOLO output row holds 5 + classes values, got ${no}`);
  const out: Detection[] = [];
  const base = b * rows * no;
  for (let r = 0; r < rows; r++) {
    const o = base + r * no;
    const objectness = data[o + 4]!;
    // objectness × class score <= objectness: a row under the threshold cannot pass with any class.
    if (!(objectness > confThreshold)) continue;
    let classId = 0;
    let best = data[o + 5]!;
    for (let c = 1; c < no - 5; c++) {
      const s = data[o + 5 + c]!;
      if (s > best) {
        best = s;
        classId = c;
      }
    }
    const score = objectness * best;
    if (!(score > confThreshold)) continue;
    // Corners written out here rather than through xywhToXyxy: this runs for every candidate (up to
    // 25,200 rows at 640 px), and one object per row is all the garbage it should make.
    const cx = data[o]!, cy = data[o + 1]!, hw = data[o + 2]! / 2, hh = data[o + 3]! / 2;
    out.push({ x1: cx - hw, y1: cy - hh, x2: cx + hw, y2: cy + hh, score, classId });
  }
  return out;
}

/** Decoding then NMS: the final boxes of image `b`, in model-input pixels, best first. */
export function detectBoxes(data: Float32Array, rows: number, no: number, b = 0, options: YoloOptions = {}): Detection[] {
  return nms(decodeYolo(data, rows, no, b, options.confThreshold ?? 0.25), options);
}
