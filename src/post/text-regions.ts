// Text regions from a DB-style text detector's probability map (PP-OCR's detector: (N, 1, H, W) in [0, 1]),
// as PP-OCR's DBPostProcess finds them, with axis-aligned boxes instead of rotated rectangles:
//   1. binarise: p > threshold (0.3)
//   2. connected components of the bitmap (8-connected, as cv2.findContours follows outlines)
//   3. drop components whose box is thinner than minSize (3) or whose mean probability is below
//      boxThreshold (0.6): noise and weak responses
//   4. unclip: DB learns a shrunken text kernel, so each box grows by area * unclipRatio / perimeter (1.5)
// Boxes are in map pixels, [x1, x2) x [y1, y2), scaled to the image by `scaleX` / `scaleY` when given.

import type { Box } from './boxes.ts';

export interface TextRegion extends Box {
  /** Mean probability over the component's pixels. */
  readonly score: number;
  /** Pixels of the component above the threshold. */
  readonly pixels: number;
}

export interface TextRegionOptions {
  readonly threshold?: number;
  readonly boxThreshold?: number;
  readonly unclipRatio?: number;
  readonly minSize?: number;
  /** Map pixel → image pixel factors (image width / map width), default 1. */
  readonly scaleX?: number;
  readonly scaleY?: number;
}

/** Text boxes in one probability map (`width` x `height` floats from `offset`), top to bottom, then left to right. */
export function textRegions(prob: Float32Array, width: number, height: number, options: TextRegionOptions = {}, offset = 0): TextRegion[] {
  const threshold = options.threshold ?? 0.3;
  const boxThreshold = options.boxThreshold ?? 0.6;
  const unclipRatio = options.unclipRatio ?? 1.5;
  const minSize = options.minSize ?? 3;
  const sx = options.scaleX ?? 1;
  const sy = options.scaleY ?? 1;
  const size = width * height;
  if (prob.length < offset + size) throw new RangeError(`a ${width}x${height} map needs ${size} values from ${offset}, got ${prob.length - offset}`);
  // 0: below the threshold or visited; 1: text, not yet labelled.
  const open = new Uint8Array(size);
  for (let i = 0; i < size; i++) open[i] = prob[offset + i]! > threshold ? 1 : 0;
  const stack = new Int32Array(size);
  const regions: TextRegion[] = [];
  for (let seed = 0; seed < size; seed++) {
    if (!open[seed]) continue;
    open[seed] = 0;
    let top = 0;
    stack[top++] = seed;
    let [x1, y1, x2, y2] = [width, height, -1, -1];
    let sum = 0;
    let pixels = 0;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      sum += prob[offset + p]!;
      pixels++;
      if (x < x1) x1 = x;
      if (x > x2) x2 = x;
      if (y < y1) y1 = y;
      if (y > y2) y2 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (open[q]) {
            open[q] = 0;
            stack[top++] = q;
          }
        }
      }
    }
    const w = x2 - x1 + 1;
    const h = y2 - y1 + 1;
    const score = sum / pixels;
    if (Math.min(w, h) < minSize || score < boxThreshold) continue;
    const grow = (w * h * unclipRatio) / (2 * (w + h));
    const box = {
      x1: Math.max(0, x1 - grow), y1: Math.max(0, y1 - grow),
      x2: Math.min(width, x2 + 1 + grow), y2: Math.min(height, y2 + 1 + grow),
    };
    if (Math.min(box.x2 - box.x1, box.y2 - box.y1) < minSize + 2) continue;
    regions.push({ x1: box.x1 * sx, y1: box.y1 * sy, x2: box.x2 * sx, y2: box.y2 * sy, score, pixels });
  }
  return regions.sort((a, b) => a.y1 - b.y1 || a.x1 - b.x1);
}
