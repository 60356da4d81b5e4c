// Encoding frames to a video with a second ffmpeg process: raw RGB frames on its stdin,
//
//   ffmpeg -f rawvideo -pix_fmt rgb24 -s WxH -r FPS -i pipe:0 [-c:v libx264 -pix_fmt yuv420p] OUT
//
// H.264 in yuv420p (what players accept) for .mp4/.mov/.mkv; ffmpeg's default codec for other extensions.
// Writes wait for the pipe to drain, so a slow encoder slows the writer instead of filling memory.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { extname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { MediaError, ffmpegSays } from './errors.ts';
import { ffmpegPath } from './ffmpeg.ts';

export class VideoSink {
  private readonly child: ChildProcessByStdio<Writable, null, Readable>;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private failed = false;
  /** Frames written so far. */
  written = 0;

  constructor(
    readonly file: string,
    private readonly width: number,
    private readonly height: number,
    fps: number,
  ) {
    const h264 = ['.mp4', '.mov', '.mkv', '.m4v'].includes(extname(file).toLowerCase());
    // yuv420p halves the chroma planes: odd sizes are padded by one pixel.
    const even = width % 2 || height % 2 ? ['-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2'] : [];
    const args = [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
      '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, '-r', String(fps), '-i', 'pipe:0',
      ...even,
      ...(h264 ? ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'] : []),
      file,
    ];
    // Own process group, as the decoder: Ctrl-C must not cut the file short; flowinfer closes it.
    this.child = spawn(ffmpegPath(), args, { stdio: ['pipe', 'ignore', 'pipe'], detached: true });
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    // An encoder that died makes writes fail with EPIPE: the exit status says why.
    this.child.stdin.on('error', () => (this.failed = true));
    this.exited = new Promise((resolve) => {
      this.child.on('error', (e) => {
        this.stderr += `\ncannot start ffmpeg (${ffmpegPath()}): ${e.message}`;
        this.failed = true;
        resolve(-1);
      });
      this.child.on('close', (code) => resolve(code));
    });
  }

  private error(code: number | null): MediaError {
    return new MediaError(`cannot encode ${this.file} (ffmpeg exit code ${String(code)}): ${ffmpegSays(this.file, this.stderr)}`);
  }

  async write(rgb: Buffer): Promise<void> {
    if (rgb.length !== this.width * this.height * 3) throw new RangeError(`a ${this.width}x${this.height} frame is ${this.width * this.height * 3} bytes, got ${rgb.length}`);
    if (this.failed || this.child.exitCode !== null) throw this.error(await this.exited);
    this.written++;
    if (!this.child.stdin.write(rgb)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.child.stdin.off('drain', done);
          this.child.off('close', done);
          resolve();
        };
        this.child.stdin.on('drain', done);
        this.child.on('close', done);
      });
    }
  }

  /** Ends the input and waits for ffmpeg to finish the file. */
  async close(): Promise<void> {
    this.child.stdin.end();
    const code = await this.exited;
    if (code !== 0) throw this.error(code);
  }

  /** Stops ffmpeg without finishing the file (on an error elsewhere). */
  abort(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
