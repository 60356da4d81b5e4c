// `flowinfer video` end to end, as a user runs it: a 2 s test video through zoo:mobilenet_v2 at 64x64.
// Every frame gets a result, in order (block); a paced source faster than the model drops frames and
// counts them (drop-oldest); a file ffmpeg cannot read is one line naming it, and so is ffmpeg failing
// part way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { videoCommand } from '../../src/cli/video.ts';
import { ffmpegPath } from '../../src/media/ffmpeg.ts';
import { framesRow, makeTestVideo, runCli } from './video-support.ts';

let dir = '';
let video = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'flowinfer-video-'));
  video = makeTestVideo(dir, 'test.mp4', 2);
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  frame: number;
  t: number;
  latencyMs: number;
  top: Array<{ classId: number; score: number }>;
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);

test('block: one JSON line per frame, in frame order, with time and top-k; the summary counts them', async () => {
  const out = join(dir, 'results.jsonl');
  const r = await runCli(['video', video, '--model', 'zoo:mobilenet_v2', '--size', '64', '--threads', '1', '--top', '3', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const records = lines(out);
  assert.equal(records.length, 20);
  records.forEach((rec, i) => {
    assert.equal(rec.frame, i);
    assert.equal(rec.t, i / 10);
    assert.equal(rec.top.length, 3);
    assert.ok(rec.top[0]!.score >= rec.top[1]!.score && rec.top[1]!.score >= rec.top[2]!.score);
    assert.ok(rec.latencyMs > 0);
  });
  assert.deepEqual(framesRow(r.stdout), { done: 20, dropped: 0 });
  assert.match(r.stdout, /^input\s+.*test\.mp4: h264 64x48, 10 frames\/s, 2\.00 s$/m);
  assert.match(r.stdout, /^output\s+.*results\.jsonl: 20 JSON lines/m);
  // The live line went to stderr and reached the total.
  assert.match(r.stderr, /20\/20 frames \| [\d.]+ frames\/s \| p50 [\d.]+ ms \| dropped 0/);
});

test('drop-oldest: a source paced at 200 frames/s outruns one frame in flight; drops are counted, order kept', async () => {
  const out = join(dir, 'dropped.jsonl');
  const r = await runCli(['video', video, '--model', 'zoo:mobilenet_v2', '--size', '64', '--threads', '1', '--fps', '200', '--in-flight', '1', '--policy', 'drop-oldest', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const records = lines(out);
  const { done, dropped } = framesRow(r.stdout);
  assert.equal(done, records.length);
  assert.ok(dropped > 0, `nothing dropped:\n${r.stdout}`);
  assert.equal(done + dropped, 400);
  for (let i = 1; i < records.length; i++) assert.ok(records[i]!.frame > records[i - 1]!.frame, 'frames out of order');
  // Timestamps follow the resampled rate.
  for (const rec of records) assert.equal(rec.t, Math.round((rec.frame / 200) * 1e6) / 1e6);
});

test('a file ffmpeg cannot read: exit 1 and one line naming it and quoting ffmpeg, no stack trace', async () => {
  const bad = join(dir, 'corrupt.mp4');
  writeFileSync(bad, Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42'), Buffer.alloc(4000, 0x5a)]));
  const r = await runCli(['video', bad, '--model', 'zoo:mobilenet_v2', '--size', '64']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^flowinfer: cannot read video .*corrupt\.mp4: ffmpeg says "[^"\n]+"\n$/);
  await assert.rejects(videoCommand(join(dir, 'nope.mp4'), { model: 'zoo:mobilenet_v2' }), /cannot read video .*nope\.mp4: ffmpeg says "No such file or directory"$/);
});

test('ffmpeg failing mid-video: the results so far stay whole, then one error line quoting it', async () => {
  // An ffmpeg that decodes everything, then complains and exits 1.
  const fake = join(dir, 'failing-ffmpeg.sh');
  writeFileSync(fake, `#!/bin/sh\n"${ffmpegPath()}" "$@"\necho "[h264 @ 0x1] broken slice" >&2\nexit 1\n`, { mode: 0o755 });
  const out = join(dir, 'partial.jsonl');
  process.env.FLOWINFER_FFMPEG = fake;
  try {
    await assert.rejects(videoCommand(video, { model: 'zoo:mobilenet_v2', size: '32', threads: 1, out }), (e: Error) =>
      e.name === 'MediaError' && e.message === `cannot decode ${video} (ffmpeg exit code 1): ffmpeg says "[h264 @ 0x1] broken slice"`);
  } finally {
    delete process.env.FLOWINFER_FFMPEG;
  }
  const records = lines(out);
  assert.ok(records.length <= 20);
  records.forEach((r, i) => assert.equal(r.frame, i));
});
