// Makes a short video of text scrolling up a page, for the text-detector example in the README:
//   node scripts/text-video.mjs [out.mp4] [--seconds 6] [--fps 10] [--size 640x360]
// Frames are SVG text rasterised by sharp and piped as raw RGB to ffmpeg (from @ffmpeg-installer/ffmpeg).
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '6' }, fps: { type: 'string', default: '10' }, size: { type: 'string', default: '640x360' } },
});
const out = positionals[0] ?? 'text.mp4';
const [width, height] = values.size.split('x').map(Number);
const fps = Number(values.fps);
const frames = Math.round(Number(values.seconds) * fps);
const LINES = ['flowinfer streams video frames', 'through PNNX and ONNX models', 'on worker threads, SIMD WebAssembly', 'one SharedArrayBuffer, no copies', 'PP-OCRv4 finds each line of text'];
const lineHeight = Math.round(height / 5);

function page(frame) {
  const shift = (frame * lineHeight) / fps; // one line a second
  const text = LINES.map((line, i) => {
    const y = height / 2 + lineHeight * (i + 1) - shift;
    return `<text x="${width / 16}" y="${y}" font-family="sans-serif" font-size="${lineHeight * 0.4}" fill="#111">${line}</text>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f1e8"/>${text}</svg>`;
}

const encoder = spawn(ffmpeg.path, [
  '-hide_banner', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-r', String(fps),
  '-i', '-', '-pix_fmt', 'yuv420p', out,
], { stdio: ['pipe', 'inherit', 'inherit'] });
const finished = new Promise((resolve, reject) => encoder.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`)))));
for (let f = 0; f < frames; f++) {
  const rgb = await sharp(Buffer.from(page(f))).removeAlpha().raw().toBuffer();
  if (!encoder.stdin.write(rgb)) await new Promise((resolve) => encoder.stdin.once('drain', resolve));
}
encoder.stdin.end();
await finished;
console.log(`${out}: ${frames} frames, ${width}x${height}, ${fps} frames/s`);
