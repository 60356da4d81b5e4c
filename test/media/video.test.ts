// Video and pictures through ffmpeg and sharp: a short test video made with ffmpeg's test source is
// described, decoded into frames of the model's size (pulled and pushed), re-encoded; pictures made
// with sharp load upright at the model's size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import sharp from 'sharp';
import { ffmpegPath, probeVideo } from '../../src/media/ffmpeg.ts';
import { loadImage } from '../../src/media/image.ts';
import { UNIT } from '../../src/media/pixels.ts';
import { VideoSource, type VideoFrame } from '../../src/media/video-source.ts';
import { VideoSink } from '../../src/media/video-sink.ts';

let dir = '';
let video = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowinfer-media-'));
  video = join(dir, 'test.mp4');
  const r = spawnSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', video]);
  assert.equal(r.status, 0, String(r.stderr));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function pulled(source: VideoSource): Promise<VideoFrame[]> {
  const frames: VideoFrame[] = [];
  for await (const f of source.frames()) frames.push(f);
  return frames;
}

test('ffmpeg describes the test video; a corrupt or missing file is one line naming it', async () => {
  assert.deepEqual(await probeVideo(video), { codec: 'h264', width: 64, height: 48, fps: 10, durationS: 2 });
  const bad = join(dir, 'bad.mp4');
  writeFileSync(bad, 'not a video at all');
  await assert.rejects(probeVideo(bad), (e: Error) => e.name === 'MediaError' && e.message === `cannot read video ${bad}: ffmpeg says "Invalid data found when processing input"`);
  await assert.rejects(probeVideo(join(dir, 'missing.mp4')), /cannot read video .*missing\.mp4: ffmpeg says "No such file or directory"/);
});

test('pulled frames: one (1, 3, H, W) tensor per frame at the asked size, index and time in order', async () => {
  const frames = await pulled(new VideoSource(video, { width: 32, height: 24, normalisation: UNIT, sourceFps: 10, keepRgb: true }));
  assert.equal(frames.length, 20);
  frames.forEach((f, i) => {
    assert.deepEqual(f.input.shape, [1, 3, 24, 32]);
    assert.deepEqual({ index: f.meta.index, t: f.meta.t }, { index: i, t: i / 10 });
    assert.equal(f.meta.rgb!.length, 32 * 24 * 3);
  });
  // testsrc has colour bars: the values span [0, 1] after /255.
  const v = frames[0]!.input.f32;
  assert.ok(Math.min(...v) >= 0 && Math.max(...v) <= 1 && Math.max(...v) > 0.7);
  assert.equal(frames[0]!.meta.rgb !== undefined, true);
});

test('--fps resamples (and times frames by the new rate); maxFrames stops early; pushed frames arrive whole', async () => {
  const resampled = await pulled(new VideoSource(video, { width: 16, height: 16, normalisation: UNIT, fps: 20, sourceFps: 10 }));
  assert.equal(resampled.length, 40);
  assert.equal(resampled[3]!.meta.t, 0.15);
  const five = await pulled(new VideoSource(video, { width: 16, height: 16, normalisation: UNIT, maxFrames: 5 }));
  assert.equal(five.length, 5);
  const pushed = await lastValueFrom(new VideoSource(video, { width: 16, height: 16, normalisation: UNIT }).live().pipe(toArray()));
  assert.deepEqual(pushed.map((f) => f.meta.index), Array.from({ length: 20 }, (_, i) => i));
});

test('a video ffmpeg cannot decode ends the frames with a MediaError quoting ffmpeg', async () => {
  const bad = join(dir, 'bad2.mp4');
  writeFileSync(bad, Buffer.alloc(1000, 7));
  await assert.rejects(pulled(new VideoSource(bad, { width: 16, height: 16, normalisation: UNIT })), /cannot decode .*bad2\.mp4 \(ffmpeg exit code 1\): ffmpeg says "Invalid data found when processing input"/);
});

test('frames written to the encoder make a playable video of that many frames', async () => {
  const out = join(dir, 'out.mp4');
  const sink = new VideoSink(out, 33, 20, 5); // odd width: padded to even for yuv420p
  for (let i = 0; i < 6; i++) await sink.write(Buffer.alloc(33 * 20 * 3, i * 40));
  await sink.close();
  assert.equal(sink.written, 6);
  const info = await probeVideo(out);
  assert.deepEqual([info.codec, info.width, info.height, info.fps], ['h264', 34, 20, 5]);
  const back = await pulled(new VideoSource(out, { width: 34, height: 20, normalisation: UNIT }));
  assert.equal(back.length, 6);
  await assert.rejects(sink.write(Buffer.alloc(10)), /a 33x20 frame is 1980 bytes, got 10/);
});

test('pictures: resized to the model input, upright by their EXIF orientation, a bad file named', async () => {
  const red = join(dir, 'red.png');
  await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } }).png().toFile(red);
  const img = await loadImage(red, 8, 8);
  assert.deepEqual([img.width, img.height, img.rgb.length], [40, 30, 8 * 8 * 3]);
  assert.deepEqual([...img.rgb.subarray(0, 6)], [255, 0, 0, 255, 0, 0]);
  // Stored 40x30 with orientation 6 (rotate 90°): it is a 30x40 picture.
  const turned = join(dir, 'turned.jpg');
  await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00ff00' } }).jpeg().withMetadata({ orientation: 6 }).toFile(turned);
  const up = await loadImage(turned, 8, 8);
  assert.deepEqual([up.width, up.height], [30, 40]);
  const junk = join(dir, 'junk.png');
  writeFileSync(junk, 'no picture');
  await assert.rejects(loadImage(junk, 8, 8), (e: Error) => e.name === 'MediaError' && e.message.startsWith(`cannot read image ${junk}: `) && !e.message.includes('\n'));
  await assert.rejects(loadImage(join(dir, 'none.png'), 8, 8), /cannot read image .*none\.png: no such file/);
});
