// `flowinfer video` end to end, part two: Ctrl-C mid-run leaves whole JSON lines and exits 130 with the
// summary; a detector's boxes as msgpack records; boxes drawn onto the frames and encoded to a video.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { unpackMultiple } from 'msgpackr';
import { probeVideo } from '../../src/media/ffmpeg.ts';
import { videoCommand } from '../../src/cli/video.ts';
import { framesRow, makeTestVideo, startCli } from './video-support.ts';

let dir = '';
let video = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowinfer-video-end-'));
  video = makeTestVideo(dir, 'test.mp4', 2);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

test('SIGINT mid-run: ffmpeg stopped, a valid truncated JSON-lines file, the summary, exit 130', async () => {
  // 20 s of video pushed at its own pace: still running when the signal comes.
  const long = makeTestVideo(dir, 'long.mp4', 20);
  const out = join(dir, 'cut.jsonl');
  const { child, done } = startCli(['video', long, '--model', 'zoo:mobilenet_v2', '--size', '64', '--threads', '1', '--policy', 'drop-oldest', '--out', out]);
  const deadline = Date.now() + 30_000;
  while (lineCount(out) < 3 && Date.now() < deadline) await sleep(50);
  assert.ok(lineCount(out) >= 3, 'no results within 30 s');
  child.kill('SIGINT');
  const r = await done;
  assert.equal(r.code, 130, r.stderr);
  const text = readFileSync(out, 'utf8');
  assert.ok(text.endsWith('\n'), 'the file ends inside a line');
  const records = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { frame: number });
  assert.ok(records.length >= 3 && records.length < 200, `${records.length} records`);
  assert.equal(framesRow(r.stdout).done, records.length);
  assert.match(r.stdout, /^stopped\s+interrupted \(Ctrl-C\)/m);
  assert.doesNotMatch(r.stderr, /\n\s+at /); // no stack trace
  // The decoder of that file is gone.
  const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  assert.ok(!ps.split('\n').some((l) => l.includes('ffmpeg') && l.includes(long)), 'ffmpeg still runs');
});

test('a detector: msgpack records with boxes inside the video frame, in order', async () => {
  const out = join(dir, 'boxes.msgpack');
  // In this process (the command's own code path, without a second CLI start-up).
  const summary = await videoCommand(video, { model: 'zoo:yolov5s', size: '64', threads: 1, conf: 0.3, out });
  type Rec = { frame: number; t: number; boxes: Array<{ x1: number; y1: number; x2: number; y2: number; score: number; classId: number; label: string }> };
  const records = unpackMultiple(readFileSync(out)) as Rec[];
  assert.deepEqual(records.map((x) => x.frame), Array.from({ length: 20 }, (_, i) => i));
  for (const rec of records) {
    assert.ok(rec.boxes.length <= 300);
    for (const b of rec.boxes) {
      // The video is 64x48 (the model sees it stretched to 64x64): boxes come back in its pixels.
      assert.ok(b.x1 >= 0 && b.x1 <= b.x2 && b.x2 <= 64 && b.y1 >= 0 && b.y1 <= b.y2 && b.y2 <= 48, JSON.stringify(b));
      assert.ok(b.score > 0.3 && b.score <= 1);
      assert.equal(typeof b.label, 'string'); // COCO names: 80 classes
    }
  }
  assert.match(summary, /model\s+zoo:yolov5s at 64x64, detector/);
});

test('annotated.mp4: the frames with boxes drawn, encoded by a second ffmpeg, one per input frame', async () => {
  const out = join(dir, 'annotated.mp4');
  const summary = await videoCommand(video, { model: 'zoo:yolov5s', size: '64', threads: 1, out, profile: true });
  const info = await probeVideo(out);
  assert.deepEqual([info.codec, info.width, info.height, info.fps, info.durationS], ['h264', 64, 64, 10, 2]);
  assert.match(summary, /annotated\.mp4: 20 frames at 10 frames\/s/);
  // --profile: the per-node table, largest share first.
  const shares = [...summary.matchAll(/ ([\d.]+) %$/gm)].map((m) => Number(m[1]));
  assert.ok(shares.length > 50, summary);
  for (let i = 1; i < shares.length; i++) assert.ok(shares[i]! <= shares[i - 1]!);
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 100) < 1);
});
