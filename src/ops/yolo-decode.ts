// The reference of models.yolo.Detect, written as YOLOv5's Detect.forward does it:
//
//   x_i = m[i](x_i)                                  1x1 conv → (N, na*no, H, W)
//   x_i = x_i.view(N, na, no, H, W).permute(0, 1, 3, 4, 2)        → (N, na, H, W, no)
//   s = x_i.sigmoid()
//   xy = (s[..., 0:2] * 2 + grid) * stride           v6+: grid = (x - 0.5, y - 0.5)
//   xy = (s[..., 0:2] * 2 - 0.5 + grid) * stride     before v6: grid = (x, y)
//   wh = (s[..., 2:4] * 2) ** 2 * anchor_grid       anchor sizes in pixels, constant over (y, x)
//   z_i = cat(xy, wh, s[..., 4:]).view(N, na*H*W, no);   output = cat(z_0, z_1, ..., dim=1)
//
// PNNX keeps grid and anchor_grid as @pnnx_k constants (1, na, H, W, 2), one pair per map size, and the
// strides as a (levels) vector. Which of a pair is the grid is told by content; levels are matched to the
// inputs by rank of map size (largest map = level 0 = smallest stride).

import type { Node } from '../graph/graph.ts';
import { Tensor } from '../tensor/tensor.ts';
import type { Shape } from '../tensor/shape.ts';
import type { ParamReader } from './params.ts';

/** One map size's pair of constants, in declaration order. */
export interface DetectLevel {
  readonly h: number;
  readonly w: number;
  readonly keys: readonly [string, string];
}

export interface DetectLayout {
  readonly anchors: number;
  /** From the largest map to the smallest. */
  readonly levels: readonly DetectLevel[];
  /** A (levels) constant holding the strides, if the node has one. */
  readonly strideKey: string | undefined;
}

/** Groups the 5-D constants by map size; every size must come as a pair. Shapes only (no data needed). */
export function detectLayout(node: Node, p: ParamReader, scales: number): DetectLayout | undefined {
  const fiveD = [...node.weights].filter(([, w]) => w.shape.length === 5 && w.shape[0] === 1 && w.shape[4] === 2);
  if (fiveD.length === 0) return undefined;
  const bySize = new Map<string, string[]>();
  for (const [key, w] of fiveD) {
    const size = `${w.shape[2]}x${w.shape[3]}`;
    bySize.set(size, [...(bySize.get(size) ?? []), key]);
  }
  const levels: DetectLevel[] = [];
  for (const [size, keys] of bySize) {
    if (keys.length !== 2) p.fail(`constants ${keys.map((k) => `@${k}`).join(', ')} are ${size} maps: expected one grid and one anchor grid per map size`);
    const w = node.weights.get(keys[0]!)!;
    levels.push({ h: w.shape[2]!, w: w.shape[3]!, keys: [keys[0]!, keys[1]!] });
  }
  if (levels.length !== scales) p.fail(`has ${levels.length} grid pairs for ${scales} feature maps`);
  const anchors = node.weights.get(fiveD[0]![0])!.shape[1]!;
  if (fiveD.some(([, w]) => w.shape[1] !== anchors)) p.fail('grid constants disagree on the number of anchors');
  levels.sort((a, b) => b.h - a.h || b.w - a.w);
  const strideKey = [...node.weights].find(([, w]) => w.shape.length === 1 && w.shape[0] === levels.length)?.[0];
  return { anchors, levels, strideKey };
}

/**
 * The constant offset c if `data` (na, H, W, 2) holds (x + c, y + c) at every [a, y, x], else undefined.
 * A grid does not depend on the anchor; an anchor grid does not depend on the position.
 */
export function gridOffset(data: Float32Array, na: number, h: number, w: number): number | undefined {
  const c = data[0]!;
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * (1 + Math.abs(b));
  for (let a = 0; a < na; a++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = ((a * h + y) * w + x) * 2;
        if (!close(data[o]!, x + c) || !close(data[o + 1]!, y + c)) return undefined;
      }
    }
  }
  return c;
}

export interface LevelData {
  readonly grid: Float32Array;
  readonly anchorGrid: Float32Array;
  /** The grid's offset c; -0.5 (v6+) when neither constant looks like a grid. */
  readonly offset: number;
}

/** Which of a level's two constants is the grid (by content), and its offset. */
export function levelData(level: DetectLevel, na: number, p: ParamReader): LevelData {
  const first = p.weightF32(level.keys[0]);
  const second = p.weightF32(level.keys[1]);
  const c0 = gridOffset(first, na, level.h, level.w);
  const c1 = gridOffset(second, na, level.h, level.w);
  // Both can look like grids only on tiny maps with square anchors: prefer YOLOv5's own offsets.
  const usual = (c: number | undefined) => c === -0.5 || c === 0;
  if (c1 !== undefined && (c0 === undefined || (!usual(c0) && usual(c1)))) return { grid: second, anchorGrid: first, offset: c1 };
  return { grid: first, anchorGrid: second, offset: c0 ?? -0.5 };
}

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

export interface DetectHead {
  readonly weight: Float32Array; // (na*no, C)
  readonly bias: Float32Array | undefined; // (na*no)
}

/** Level rank (largest map first, ties in input order) and stride of each input map. */
export function detectLevels(layout: DetectLayout, shapes: readonly Shape[], p: ParamReader): Array<{ level: DetectLevel; stride: number }> {
  const strides = layout.strideKey ? [...p.weightF32(layout.strideKey)] : layout.levels.map((_, r) => 8 * 2 ** r);
  const byRank = shapes.map((_, i) => i).sort((i, j) => shapes[j]![2]! - shapes[i]![2]! || shapes[j]![3]! - shapes[i]![3]! || i - j);
  const rank = new Array<number>(shapes.length);
  byRank.forEach((i, r) => (rank[i] = r));
  return shapes.map((_, i) => ({ level: layout.levels[rank[i]!]!, stride: strides[rank[i]!]! }));
}

/**
 * What decoding one input map of size h x w needs, per (anchor, y, x): the grid cell and the anchor size
 * (pairs), from the stored constants when the map size matches them, regenerated otherwise; `legacy` is
 * the pre-v6 formula (grid without the -0.5).
 */
export interface DecodeTables {
  readonly cells: Float32Array; // (na, h, w, 2)
  readonly anchors: Float32Array; // (na, h, w, 2)
  readonly stride: number;
  readonly legacy: boolean;
}

export function decodeTables(level: DetectLevel, stride: number, na: number, h: number, w: number, p: ParamReader): DecodeTables {
  const data = levelData(level, na, p);
  const stored = level.h === h && level.w === w;
  const cells = new Float32Array(na * h * w * 2);
  const anchors = new Float32Array(na * h * w * 2);
  for (let a = 0; a < na; a++) {
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const o = ((a * h + y) * w + x) * 2;
        const g = ((a * level.h + (stored ? y : 0)) * level.w + (stored ? x : 0)) * 2;
        cells[o] = stored ? data.grid[g]! : x + data.offset;
        cells[o + 1] = stored ? data.grid[g + 1]! : y + data.offset;
        anchors[o] = data.anchorGrid[g]!;
        anchors[o + 1] = data.anchorGrid[g + 1]!;
      }
    }
  }
  return { cells, anchors, stride, legacy: Math.abs(data.offset) < 1e-6 };
}

/** One decoded value: k = 0, 1 centre; 2, 3 size; the rest as they are. `s` is already sigmoid-ed. */
export function decodeValue(s: number, k: number, cell: number, anchor: number, stride: number, legacy: boolean): number {
  if (k < 2) return legacy ? (s * 2 - 0.5 + cell) * stride : (s * 2 + cell) * stride;
  if (k < 4) return (s * 2) ** 2 * anchor;
  return s;
}

/** Runs the head on every input: (N, sum na*H*W, no). */
export function detectReference(layout: DetectLayout, no: number, heads: readonly DetectHead[], inputs: readonly Tensor[], p: ParamReader): Tensor {
  const na = layout.anchors;
  const n = inputs[0]!.shape[0]!;
  const levels = detectLevels(layout, inputs.map((x) => x.shape), p);
  const rows = inputs.reduce((s, x) => s + na * x.shape[2]! * x.shape[3]!, 0);
  const out = new Float32Array(n * rows * no);
  let rowStart = 0;
  for (const [i, input] of inputs.entries()) {
    const [, ch, h, w] = input.shape as [number, number, number, number];
    const t = decodeTables(levels[i]!.level, levels[i]!.stride, na, h, w, p);
    const x = input.f32;
    const { weight, bias } = heads[i]!;
    const plane = new Float64Array(h * w);
    for (let b = 0; b < n; b++) {
      for (let a = 0; a < na; a++) {
        for (let k = 0; k < no; k++) {
          const o = a * no + k;
          // The 1x1 convolution's output plane for channel o = a*no + k.
          plane.fill(bias ? bias[o]! : 0);
          for (let c = 0; c < ch; c++) {
            const wv = weight[o * ch + c]!;
            const base = (b * ch + c) * h * w;
            for (let q = 0; q < h * w; q++) plane[q] += wv * x[base + q]!;
          }
          for (let q = 0; q < h * w; q++) {
            const cell = ((a * h * w) + q) * 2 + (k & 1);
            out[(b * rows + rowStart + a * h * w + q) * no + k] = decodeValue(sigmoid(plane[q]!), k, t.cells[cell]!, t.anchors[cell]!, t.stride, t.legacy);
          }
        }
      }
    }
    rowStart += na * h * w;
  }
  return Tensor.f32([n, rows, no], out);
}
