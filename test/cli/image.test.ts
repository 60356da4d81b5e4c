// `flowinfer run <model> --image ...`: pictures made here with sharp (solid colours, a shape), and the
// real photographs of ../shared/images when present. Seeded random weights name no true class, so the
// checks are on shapes: k lines of top-k, boxes inside the picture, the annotated picture's size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { runCommand } from '../../src/cli/run.ts';
import { annotatedName } from '../../src/cli/image.ts';
import { SHARED } from '../helpers/shared.ts';
import { runCli } from './video-support.ts';

const PHOTOS = join(SHARED, 'images');
const SKIP_PHOTOS = existsSync(join(PHOTOS, 'bus.jpg')) ? false : `no photographs at ${PHOTOS} (../shared/images); these tests read bus.jpg and zidane.jpg`;

let dir = '';
let red = '';
let blue = '';
let shapes = '';
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flowinfer-image-'));
  red = join(dir, 'red.png');
  blue = join(dir, 'blue.jpg');
  shapes = join(dir, 'shapes.png');
  await sharp({ create: { width: 80, height: 60, channels: 3, background: '#e02020' } }).png().toFile(red);
  await sharp({ create: { width: 50, height: 50, channels: 3, background: '#2040e0' } }).jpeg().toFile(blue);
  // A white disc and a black square on grey, 320x240.
  const svg = '<svg width="320" height="240" xmlns="http://www.w3.org/2000/svg"><rect width="320" height="240" fill="#808080"/><circle cx="90" cy="120" r="60" fill="#ffffff"/><rect x="180" y="60" width="100" height="120" fill="#000000"/></svg>';
  await sharp(Buffer.from(svg)).png().toFile(shapes);
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface JsonResult {
  image: string;
  width: number;
  height: number;
  top?: Array<{ classId: number; label?: string; score: number }>;
  boxes?: Array<{ x1: number; y1: number; x2: number; y2: number; score: number; classId: number; label?: string }>;
}

test('a classifier on a batch of two pictures: a header and k lines each, labels from a file', async () => {
  const labels = join(dir, 'labels.txt');
  writeFileSync(labels, Array.from({ length: 1000 }, (_, i) => `thing ${i}`).join('\n') + '\n');
  const text = await runCommand('zoo:mobilenet_v2', { threads: 1, image: [red, blue], size: '64', top: 3, labels });
  const lines = text.split('\n');
  assert.equal(lines.length, 2 * (1 + 3));
  assert.match(lines[0]!, /red\.png {2}80x60 \(model input 64x64\)$/);
  assert.match(lines[4]!, /blue\.jpg {2}50x50 \(model input 64x64\)$/);
  for (const l of [...lines.slice(1, 4), ...lines.slice(5, 8)]) assert.match(l, /^ {2} [123]\. thing \d+ +0\.\d{4}$/);
  // --json: the same, as data; probabilities of a softmax, best first.
  const json = JSON.parse(await runCommand('zoo:mobilenet_v2', { threads: 1, image: [red], size: '64', top: 5, json: true })) as JsonResult[];
  assert.equal(json.length, 1);
  assert.equal(json[0]!.top!.length, 5);
  assert.ok(json[0]!.top!.every((s, i, a) => s.score > 0 && s.score < 1 && (i === 0 || a[i - 1]!.score >= s.score)));
});

test('a detector: boxes inside the picture, COCO labels, and --out draws them at the picture size', async () => {
  const out = join(dir, 'annotated.png');
  const json = JSON.parse(await runCommand('zoo:yolov5s', { threads: 1, image: [shapes], size: '64', json: true, out })) as JsonResult[];
  const r = json[0]!;
  assert.deepEqual([r.width, r.height], [320, 240]);
  assert.ok(r.boxes!.length > 0, 'seeded weights give some boxes above 0.25');
  for (const b of r.boxes!) {
    assert.ok(b.x1 >= 0 && b.x1 <= b.x2 && b.x2 <= 320 && b.y1 >= 0 && b.y1 <= b.y2 && b.y2 <= 240, JSON.stringify(b));
    assert.ok(b.score > 0.25 && typeof b.label === 'string');
  }
  const meta = await sharp(out).metadata();
  assert.deepEqual([meta.width, meta.height], [320, 240]);
  // Something was drawn: the annotated picture differs from the original.
  const [a, b] = await Promise.all([sharp(shapes).removeAlpha().raw().toBuffer(), sharp(out).removeAlpha().raw().toBuffer()]);
  assert.notDeepEqual(a, b);
  assert.equal(annotatedName('x/annotated.png', 1, 3), 'x/annotated.1.png');
});

test('errors are one line: a missing picture, --image with --fill, a bad --size', async () => {
  await assert.rejects(runCommand('zoo:mobilenet_v2', { threads: 1, image: [join(dir, 'none.png')], size: '32' }), /^MediaError: cannot read image .*none\.png: no such file$/m);
  await assert.rejects(runCommand('zoo:mobilenet_v2', { threads: 1, image: [red], fill: 1 }), /--image makes the input/);
  await assert.rejects(runCommand('zoo:yolov5s', { threads: 1, image: [red], size: '100' }), /zoo:yolov5s: yolov5s: size 100 must be a multiple of 32/);
  const r = await runCli(['run', 'zoo:mobilenet_v2', '--image', join(dir, 'junk.jpg'), '--size', '32x48', '--threads', '1']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^flowinfer: cannot read image .*junk\.jpg: no such file\n$/);
});

test('the real photographs: top-5 of a classifier, detector boxes inside the photograph', { skip: SKIP_PHOTOS }, async () => {
  const bus = join(PHOTOS, 'bus.jpg');
  const zidane = join(PHOTOS, 'zidane.jpg');
  const text = await runCommand('zoo:mobilenet_v2', { threads: 1, image: [bus, zidane], size: '96' });
  const lines = text.split('\n');
  assert.equal(lines.length, 12);
  assert.match(lines[0]!, /bus\.jpg {2}810x1080 /);
  assert.match(lines[6]!, /zidane\.jpg {2}1280x720 /);
  const out = join(dir, 'bus-annotated.jpg');
  const [r] = JSON.parse(await runCommand('zoo:yolov5s', { threads: 1, image: [bus], size: '128', json: true, out })) as JsonResult[];
  assert.ok(r!.boxes!.length > 0);
  for (const b of r!.boxes!) assert.ok(b.x1 >= 0 && b.x2 <= 810 && b.y1 >= 0 && b.y2 <= 1080 && b.x1 <= b.x2 && b.y1 <= b.y2);
  const meta = await sharp(out).metadata();
  assert.deepEqual([meta.width, meta.height], [810, 1080]);
});
