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

/** Runs the head on every input: (N, sum na*H*W, no). */
export function detectReference(layout: DetectLayout, no: number, heads: readonly DetectHead[], inputs: readonly Tensor[], p: ParamReader): Tensor {
  const na = layout.anchors;
  const n = inputs[0]!.shape[0]!;
  const strides = layout.strideKey ? [...p.weightF32(layout.strideKey)] : layout.levels.map((_, r) => 8 * 2 ** r);
  // Rank of each input by map size, largest first (ties keep input order).
  const byRank = inputs.map((x, i) => i).sort((i, j) => inputs[j]!.shape[2]! - inputs[i]!.shape[2]! || inputs[j]!.shape[3]! - inputs[i]!.shape[3]! || i - j);
  const rank = new Array<number>(inputs.length);
  byRank.forEach((i, r) => (rank[i] = r));
  const rows = inputs.reduce((s, x) => s + na * x.shape[2]! * x.shape[3]!, 0);
  const out = new Float32Array(n * rows * no);
  let rowStart = 0;
  for (const [i, input] of inputs.entries()) {
    const [, ch, h, w] = input.shape as [number, number, number, number];
    const level = layout.levels[rank[i]!]!;
    const stride = strides[rank[i]!]!;
    const data = levelData(level, na, p);
    const stored = level.h === h && level.w === w;
    const legacy = Math.abs(data.offset) < 1e-6;
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
          for (let y = 0; y < h; y++) {
            for (let xx = 0; xx < w; xx++) {
              const s = sigmoid(plane[y * w + xx]!);
              // Stored constants at [0, a, y, x, k] when the map size matches, else regenerated.
              const g = ((a * level.h + (stored ? y : 0)) * level.w + (stored ? xx : 0)) * 2;
              let v: number;
              if (k < 2) {
                const cell = stored ? data.grid[g + k]! : (k === 0 ? xx : y) + data.offset;
                v = legacy ? (s * 2 - 0.5 + cell) * stride : (s * 2 + cell) * stride;
              } else if (k < 4) {
                v = (s * 2) ** 2 * data.anchorGrid[g + k - 2]!;
              } else {
                v = s;
              }
              out[(b * rows + rowStart + (a * h + y) * w + xx) * no + k] = v;
            }
          }
        }
      }
    }
    rowStart += na * h * w;
  }
  return Tensor.f32([n, rows, no], out);
}
