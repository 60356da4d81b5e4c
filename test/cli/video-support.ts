// Shared by the `flowinfer video` end-to-end tests: a short test video made by ffmpeg, and running the
// CLI as a user would (bin/flowinfer.js in a child process).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ffmpegPath } from '../../src/media/ffmpeg.ts';

export const BIN = new URL('../../bin/flowinfer.js', import.meta.url).pathname;

/** ffmpeg's test pattern (moving colour bars and a counter) as an H.264 file. */
export function makeTestVideo(dir: string, name: string, seconds: number, size = '64x48', rate = 10): string {
  const file = join(dir, name);
  const r = spawnSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`, '-t', String(seconds), '-pix_fmt', 'yuv420p', file]);
  assert.equal(r.status, 0, String(r.stderr));
  return file;
}

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function startCli(args: readonly string[]): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const done = new Promise<Finished>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

export function runCli(args: readonly string[]): Promise<Finished> {
  return startCli(args).done;
}

/** The summary's "frames" row: done and dropped. */
export function framesRow(summary: string): { done: number; dropped: number } {
  const m = /^frames\s+(\d+) done, (\d+) dropped/m.exec(summary);
  assert.ok(m, `no frames row in:\n${summary}`);
  return { done: Number(m[1]), dropped: Number(m[2]) };
}
