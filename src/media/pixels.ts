// Interleaved RGB bytes (what sharp and ffmpeg's rgb24 give) to the planar float layout models take:
//
//   rgb  [y][x][c] uint8, H x W x 3           →   out [c][y][x] f32, 3 x H x W  (one image of NCHW)
//   out = (rgb / 255 - mean[c]) / std[c]
//
// torchvision classifiers want ImageNet's mean and std; YOLOv5 wants rgb / 255 only (mean 0, std 1).

import { UsageError } from '../errors.ts';

export interface Normalisation {
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];
}

export const IMAGENET: Normalisation = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };
export const UNIT: Normalisation = { mean: [0, 0, 0], std: [1, 1, 1] };

/** Writes one image into `out` at element `offset` (image b of a batch: offset b * 3 * H * W). */
export function rgbToPlanar(rgb: Uint8Array, width: number, height: number, norm: Normalisation, out: Float32Array, offset = 0): void {
  const plane = width * height;
  if (rgb.length !== plane * 3) throw new RangeError(`${width}x${height} RGB needs ${plane * 3} bytes, got ${rgb.length}`);
  // Per channel: v * scale + shift, with scale = 1 / (255 std) and shift = -mean / std.
  for (let c = 0; c < 3; c++) {
    const scale = 1 / (255 * norm.std[c]!);
    const shift = -norm.mean[c]! / norm.std[c]!;
    const base = offset + c * plane;
    for (let p = 0, s = c; p < plane; p++, s += 3) out[base + p] = rgb[s]! * scale + shift;
  }
}

/** "0.485,0.456,0.406" → three numbers; `what` names the option in the error. */
export function parseTriple(text: string, what: string): [number, number, number] {
  const parts = text.split(',').map((s) => Number(s.trim()));
  if (parts.length === 1 && Number.isFinite(parts[0])) return [parts[0]!, parts[0]!, parts[0]!];
  if (parts.length !== 3 || parts.some((v) => !Number.isFinite(v))) throw new UsageError(`${what} ${text}: expected three numbers (R,G,B), e.g. 0.485,0.456,0.406`);
  return parts as [number, number, number];
}

/** --mean/--std if given, else the model kind's default. */
export function normalisation(defaults: Normalisation, mean?: string, std?: string): Normalisation {
  const n = { mean: mean ? parseTriple(mean, '--mean') : defaults.mean, std: std ? parseTriple(std, '--std') : defaults.std };
  if (n.std.some((v) => v === 0)) throw new UsageError(`--std ${std}: a standard deviation of 0 divides by zero`);
  return n;
}
