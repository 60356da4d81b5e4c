// The pieces of the media path that need no ffmpeg: cutting a byte stream into frames (and stopping
// reading it when nobody wants frames), RGB to planar floats, ffmpeg's input description, result records.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { unpackMultiple } from 'msgpackr';
import { readFrames } from '../../src/media/frame-reader.ts';
import { IMAGENET, normalisation, parseTriple, rgbToPlanar, UNIT } from '../../src/media/pixels.ts';
import { parseVideoInfo } from '../../src/media/ffmpeg.ts';
import { ffmpegSays } from '../../src/media/errors.ts';
import { RecordWriter, recordFormat } from '../../src/media/results.ts';

test('frames of exactly N bytes from chunks of any size; a short tail is counted, not yielded', async () => {
  const bytes = Buffer.from(Array.from({ length: 12 * 5 + 7 }, (_, i) => i % 251));
  const stream = new PassThrough();
  const result = { trailing: 0 };
  const read = (async () => {
    const frames: Buffer[] = [];
    for await (const f of readFrames(stream, 12, result)) frames.push(Buffer.from(f));
    return frames;
  })();
  // Chunks of 7 bytes, each on its own turn of the event loop, so frames straddle chunks.
  for (let at = 0; at < bytes.length; at += 7) {
    stream.write(bytes.subarray(at, at + 7));
    await tick();
  }
  stream.end();
  const frames = await read;
  assert.equal(frames.length, 5);
  frames.forEach((f, i) => assert.deepEqual(f, bytes.subarray(i * 12, i * 12 + 12)));
  assert.equal(result.trailing, 7);
});

test('a stream error ends the frames with that error', async () => {
  const stream = new PassThrough();
  const it = readFrames(stream, 4);
  stream.write(Buffer.alloc(4));
  assert.equal((await it.next()).value.length, 4);
  const next = it.next();
  stream.destroy(new Error('pipe broke'));
  await assert.rejects(next, /pipe broke/);
});

test('no frames wanted, no bytes read: the source is not drained past its buffer (what blocks ffmpeg)', async () => {
  let produced = 0;
  const source = new Readable({
    highWaterMark: 4000,
    read() {
      produced++;
      this.push(Buffer.alloc(1000, produced));
    },
  });
  const it = readFrames(source, 1000);
  await it.next();
  await it.next();
  for (let i = 0; i < 20; i++) await tick();
  // Two frames taken, then the buffer's 4000 bytes (and a chunk in hand): never the endless source.
  assert.ok(produced <= 8, `the source was read ${produced} times`);
  await it.return(undefined);
});

test('RGB bytes to planar floats with per-channel mean and std', () => {
  // A 2x1 picture: pixel 0 = (255, 0, 51), pixel 1 = (0, 255, 102).
  const rgb = Uint8Array.from([255, 0, 51, 0, 255, 102]);
  const out = new Float32Array(8).fill(-9);
  rgbToPlanar(rgb, 2, 1, UNIT, out, 2);
  assert.deepEqual([...out].map((v) => Number(v.toFixed(6))), [-9, -9, 1, 0, 0, 1, 0.2, 0.4]);
  const n = new Float32Array(6);
  rgbToPlanar(rgb, 2, 1, IMAGENET, n);
  assert.ok(Math.abs(n[0]! - (1 - 0.485) / 0.229) < 1e-5);
  assert.ok(Math.abs(n[3]! - (1 - 0.456) / 0.224) < 1e-5);
  assert.throws(() => rgbToPlanar(rgb, 3, 1, UNIT, n), /needs 9 bytes, got 6/);
  assert.deepEqual(parseTriple('0.5', '--mean'), [0.5, 0.5, 0.5]);
  assert.throws(() => parseTriple('1,2', '--mean'), /--mean 1,2: expected three numbers/);
  assert.throws(() => normalisation(UNIT, undefined, '1,0,1'), /divides by zero/);
  assert.deepEqual(normalisation(IMAGENET), IMAGENET);
});

test("ffmpeg's description of an input: size, rate, duration; no video stream; its last word", () => {
  const mp4 = [
    "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 't.mp4':",
    '  Duration: 00:00:02.00, start: 0.000000, bitrate: 13 kb/s',
    '    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 64x64 [SAR 1:1 DAR 1:1], 9 kb/s, 10 fps, 10 tbr, 10240 tbn, 20 tbc (default)',
    'At least one output file must be specified',
  ].join('\n');
  assert.deepEqual(parseVideoInfo(mp4), { codec: 'h264', width: 64, height: 64, fps: 10, durationS: 2 });
  const jpeg = "Input #0, image2, from 'bus.jpg':\n  Duration: 00:00:00.04, start: 0.000000, bitrate: 97487 kb/s\n    Stream #0:0: Video: mjpeg (Baseline), yuvj420p(pc, bt470bg/unknown/unknown), 810x1080 [SAR 72:72 DAR 3:4], 25 tbr, 25 tbn, 25 tbc";
  assert.deepEqual(parseVideoInfo(jpeg), { codec: 'mjpeg', width: 810, height: 1080, fps: 25, durationS: 0.04 });
  const live = "Input #0, rtsp, from 'rtsp://cam':\n  Duration: N/A, start: 0.0\n    Stream #0:0: Video: h264, yuv420p(progressive), 1920x1080, 29.97 fps, 29.97 tbr";
  assert.deepEqual(parseVideoInfo(live), { codec: 'h264', width: 1920, height: 1080, fps: 29.97, durationS: undefined });
  assert.equal(parseVideoInfo("Input #0, wav, from 'a.wav':\n    Stream #0:0: Audio: pcm_s16le, 44100 Hz"), undefined);
  assert.equal(ffmpegSays('bad.mp4', '[mov @ 0x1] moov atom not found\nbad.mp4: Invalid data found when processing input\n'), 'ffmpeg says "Invalid data found when processing input"');
});

test('records: JSON lines and msgpack by extension, whole records', () => {
  assert.equal(recordFormat('r.jsonl'), 'jsonl');
  assert.equal(recordFormat('r.MSGPACK'), 'msgpack');
  assert.equal(recordFormat('out.mp4'), undefined);
  const dir = mkdtempSync(join(tmpdir(), 'flowinfer-records-'));
  try {
    const records = [{ frame: 0, t: 0, top: [{ classId: 3, score: 0.5 }] }, { frame: 1, t: 0.1, boxes: [] }];
    for (const file of ['r.jsonl', 'r.msgpack']) {
      const w = new RecordWriter(join(dir, file), recordFormat(file));
      records.forEach((r) => w.write(r));
      w.close();
      assert.equal(w.records, 2);
    }
    assert.deepEqual(readFileSync(join(dir, 'r.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)), records);
    assert.deepEqual(unpackMultiple(readFileSync(join(dir, 'r.msgpack'))), records);
    assert.throws(() => new RecordWriter(join(dir, 'no', 'such', 'r.jsonl')), /--out .*r\.jsonl: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
