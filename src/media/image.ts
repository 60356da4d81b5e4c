// Still images through sharp: decoded (any format sharp reads: JPEG, PNG, WebP, ...), turned upright by
// their EXIF orientation, stretched to the model's input (as `-s WxH` does for video, so boxes map back
// by one scale per axis), and annotated copies written at the original size.

import sharp from 'sharp';
import { overlaySvg } from '../post/draw.ts';
import type { LabelledBox } from '../post/summarize.ts';
import { MediaError } from './errors.ts';

export interface LoadedImage {
  readonly file: string;
  /** The image as stored, upright. */
  readonly width: number;
  readonly height: number;
  /** Resized to the model's input: inputWidth x inputHeight x 3 bytes. */
  readonly rgb: Buffer;
  readonly inputWidth: number;
  readonly inputHeight: number;
}

function mediaError(file: string, e: unknown): MediaError {
  const code = (e as NodeJS.ErrnoException).code;
  const message = code === 'ENOENT' || /missing|not exist/i.test((e as Error).message) ? 'no such file' : (e as Error).message;
  return new MediaError(`cannot read image ${file}: ${message.split('\n')[0]}`);
}

export async function loadImage(file: string, inputWidth: number, inputHeight: number): Promise<LoadedImage> {
  try {
    const { autoOrient } = await sharp(file).metadata();
    const rgb = await sharp(file)
      .autoOrient()
      .resize(inputWidth, inputHeight, { fit: 'fill' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer();
    return { file, width: autoOrient.width, height: autoOrient.height, rgb, inputWidth, inputHeight };
  } catch (e) {
    throw mediaError(file, e);
  }
}

/** Writes `file` with boxes (in its own pixels) or a caption drawn on it, to `out` (format from the extension). */
export async function writeAnnotated(file: string, out: string, boxes: readonly LabelledBox[], caption: string | undefined, width: number, height: number): Promise<void> {
  try {
    await sharp(file).autoOrient().composite([{ input: Buffer.from(overlaySvg(width, height, boxes, caption)) }]).toFile(out);
  } catch (e) {
    throw new MediaError(`cannot write ${out}: ${(e as Error).message.split('\n')[0]}`);
  }
}
