// Drawing results onto pictures: boxes (outlined, with a filled tag holding label and score) or a caption
// (a classifier's best class), as one SVG overlay that sharp (librsvg) renders and composites. Used for
// `run --image ... --out annotated.png` and for the frames of `video --out annotated.mp4`.

import sharp from 'sharp';
import type { LabelledBox, LabelledScore } from './summarize.ts';

// 20 colours far apart in hue and lightness; a class always gets the same one.
const PALETTE = [
  '#ff3838', '#2c99a8', '#ff9d97', '#00c2ff', '#ff701f', '#344593', '#ffb21d', '#6473ff', '#cfd231', '#0018ec',
  '#48f90a', '#8438ff', '#92cc17', '#520085', '#3ddb86', '#cb38ff', '#1a9334', '#ff95c8', '#00d4bb', '#ff37c7',
];

export function classColour(classId: number): string {
  return PALETTE[((classId % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

export function nameOf(s: LabelledScore): string {
  return s.label ?? `class ${s.classId}`;
}

/** The overlay for a width x height picture: its boxes, or a caption at the top left. */
export function overlaySvg(width: number, height: number, boxes: readonly LabelledBox[], caption?: string): string {
  // Sizes follow the picture: readable at 64 px and at 1080 px.
  const font = Math.max(8, Math.round(Math.min(width, height) / 40));
  const stroke = Math.max(1, Math.round(Math.min(width, height) / 320));
  const tagHeight = Math.round(font * 1.3);
  const parts: string[] = [];
  for (const b of boxes) {
    const colour = classColour(b.classId);
    const text = `${nameOf(b)} ${b.score.toFixed(2)}`;
    // A tag above the box, or inside it when the box touches the top edge.
    const tagY = b.y1 >= tagHeight ? b.y1 - tagHeight : b.y1;
    const tagWidth = Math.round(text.length * font * 0.6 + font * 0.4);
    parts.push(
      // The outline inset by half its width: it covers the box's own edge pixels, crisp, not straddling.
      `<rect x="${(b.x1 + stroke / 2).toFixed(1)}" y="${(b.y1 + stroke / 2).toFixed(1)}" width="${Math.max(0, b.x2 - b.x1 - stroke).toFixed(1)}" height="${Math.max(0, b.y2 - b.y1 - stroke).toFixed(1)}" fill="none" stroke="${colour}" stroke-width="${stroke}" shape-rendering="crispEdges"/>`,
      `<rect x="${b.x1.toFixed(1)}" y="${tagY.toFixed(1)}" width="${tagWidth}" height="${tagHeight}" fill="${colour}"/>`,
      `<text x="${(b.x1 + font * 0.2).toFixed(1)}" y="${(tagY + font).toFixed(1)}" font-family="DejaVu Sans, sans-serif" font-size="${font}" fill="#ffffff">${escapeXml(text)}</text>`,
    );
  }
  if (caption) {
    const tagWidth = Math.round(caption.length * font * 0.6 + font * 0.4);
    parts.push(
      `<rect x="0" y="0" width="${tagWidth}" height="${tagHeight}" fill="#000000" fill-opacity="0.6"/>`,
      `<text x="${(font * 0.2).toFixed(1)}" y="${font}" font-family="DejaVu Sans, sans-serif" font-size="${font}" fill="#ffffff">${escapeXml(caption)}</text>`,
    );
  }
  return `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}

/** A classifier's caption: "label 0.87". */
export function captionOf(top: readonly LabelledScore[] | undefined): string | undefined {
  const best = top?.[0];
  return best ? `${nameOf(best)} ${best.score.toFixed(2)}` : undefined;
}

/** Draws onto a raw RGB frame (width x height x 3 bytes) and returns a new raw RGB frame. */
export async function drawOnRgb(rgb: Buffer, width: number, height: number, boxes: readonly LabelledBox[], caption?: string): Promise<Buffer> {
  if (boxes.length === 0 && !caption) return rgb;
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(overlaySvg(width, height, boxes, caption)) }])
    .removeAlpha()
    .raw()
    .toBuffer();
}
