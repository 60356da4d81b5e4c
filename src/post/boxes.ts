// Axis-aligned boxes in pixels, corners (x1, y1) top-left and (x2, y2) bottom-right, x2 >= x1, y2 >= y1.

export interface Box {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
}

/** A box with its confidence (objectness × class probability) and class number. */
export interface Detection extends Box {
  readonly score: number;
  readonly classId: number;
}

/** Centre, width and height (what YOLO heads emit) to corners. */
export function xywhToXyxy(cx: number, cy: number, w: number, h: number): Box {
  return { x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2 };
}

export function area(b: Box): number {
  return Math.max(0, b.x2 - b.x1) * Math.max(0, b.y2 - b.y1);
}

/** Intersection over union; 0 when both boxes are empty. */
export function iou(a: Box, b: Box): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (area(a) + area(b) - inter);
}

/**
 * From model-input pixels to image pixels: the image was stretched to the model's input (no letterbox),
 * so each axis scales on its own; then clipped to the image, as YOLOv5's clip_boxes does.
 */
export function scaleBoxes<T extends Box>(boxes: readonly T[], sx: number, sy: number, width: number, height: number): T[] {
  const clip = (v: number, hi: number) => Math.min(hi, Math.max(0, v));
  return boxes.map((b) => ({ ...b, x1: clip(b.x1 * sx, width), y1: clip(b.y1 * sy, height), x2: clip(b.x2 * sx, width), y2: clip(b.y2 * sy, height) }));
}
