// `flowinfer run <model> --image a.jpg [--image b.png ...] [--size 224] [--mean R,G,B --std R,G,B]
// [--labels FILE] [--top 5] [--out annotated.png] [--json]`: pictures decoded and resized by sharp,
// normalised and laid out NCHW; several form one batch. Prints the top-k classes of a classifier, or the
// boxes of a detector (decoded, NMS) in the picture's own pixels; --out draws them onto the picture.

import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { UsageError } from '../errors.ts';
import { MediaError } from '../media/errors.ts';
import { loadImage, writeAnnotated, type LoadedImage } from '../media/image.ts';
import { rgbToPlanar } from '../media/pixels.ts';
import { captionOf, nameOf } from '../post/draw.ts';
import type { ImageResult } from '../post/summarize.ts';
import { Tensor } from '../tensor/tensor.ts';
import { openPixelModel, type PixelModelOptions } from './image-model.ts';

export interface ImageRunOptions extends PixelModelOptions {
  readonly image: string[];
  readonly out?: string;
  readonly json?: boolean;
}

/** annotated.png for one picture; annotated.0.png, annotated.1.png, ... for a batch. */
export function annotatedName(out: string, index: number, count: number): string {
  if (count === 1) return out;
  const ext = extname(out);
  return `${out.slice(0, out.length - ext.length)}.${index}${ext}`;
}

function formatResult(img: LoadedImage, r: ImageResult): string[] {
  const head = `${img.file}  ${img.width}x${img.height} (model input ${img.inputWidth}x${img.inputHeight})`;
  if (r.top) {
    const width = Math.max(...r.top.map((s) => nameOf(s).length));
    return [head, ...r.top.map((s, i) => `  ${String(i + 1).padStart(2)}. ${nameOf(s).padEnd(width)}  ${s.score.toFixed(4)}`)];
  }
  if (r.boxes) {
    const width = Math.max(0, ...r.boxes.map((b) => nameOf(b).length));
    const px = (v: number) => v.toFixed(1);
    return [
      `${head}: ${r.boxes.length} box${r.boxes.length === 1 ? '' : 'es'}`,
      ...r.boxes.map((b) => `  ${nameOf(b).padEnd(width)}  ${b.score.toFixed(3)}  (${px(b.x1)}, ${px(b.y1)})-(${px(b.x2)}, ${px(b.y2)})`),
    ];
  }
  return [head, ...Object.entries(r.outputs ?? {}).map(([name, s]) => `  ${name}  (${s.shape.join(',')})  min ${s.min.toPrecision(6)}  max ${s.max.toPrecision(6)}  mean ${s.mean.toPrecision(6)}`)];
}

export async function imageRunCommand(spec: string, options: ImageRunOptions): Promise<string> {
  const files = options.image;
  if (files.length === 0) throw new UsageError('--image: give at least one picture');
  const top = options.top ?? 5;
  if (!Number.isInteger(top) || top < 1) throw new UsageError(`--top ${String(options.top)}: expected a positive integer`);
  // A missing picture is told before the model is built.
  for (const f of files) if (!existsSync(f)) throw new MediaError(`cannot read image ${f}: no such file`);
  const { model, width, height, post, normalisation } = await openPixelModel(spec, { ...options, batch: files.length });
  try {
    if (options.out && post.kind.kind === 'raw') {
      throw new UsageError(`--out draws classes or boxes, but ${spec}'s output (${model.outputs[0]!.shape.join(',')}) is neither (N, classes) nor (N, boxes, 5+classes)`);
    }
    const images = await Promise.all(files.map((f) => loadImage(f, width, height)));
    // The batch: image b at offset b * 3 * H * W.
    const data = new Float32Array(files.length * 3 * width * height);
    images.forEach((img, b) => rgbToPlanar(img.rgb, width, height, normalisation, data, b * 3 * width * height));
    const outputs = await model.run(Tensor.f32([files.length, 3, height, width], data));
    const results = images.map((img, b) => post.image(outputs, b, { inputWidth: width, inputHeight: height, width: img.width, height: img.height }));
    const written: string[] = [];
    if (options.out) {
      for (const [b, img] of images.entries()) {
        const out = annotatedName(options.out, b, images.length);
        await writeAnnotated(img.file, out, results[b]!.boxes ?? [], captionOf(results[b]!.top), img.width, img.height);
        written.push(out);
      }
    }
    if (options.json) {
      return JSON.stringify(images.map((img, b) => ({ image: img.file, width: img.width, height: img.height, ...results[b]! })));
    }
    const lines = images.flatMap((img, b) => formatResult(img, results[b]!));
    return [...lines, ...written.map((w) => `annotated: ${w}`)].join('\n');
  } finally {
    await model.dispose();
  }
}
