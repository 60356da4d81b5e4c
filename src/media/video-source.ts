// A video as a source of frames for model.stream: ffmpeg decodes and scales to the model's input
//
//   ffmpeg [-re] -i INPUT [-vf fps=N] -f rawvideo -pix_fmt rgb24 -s WxH pipe:1      (W*H*3 bytes a frame)
//
// and each frame becomes a (1, 3, H, W) tensor with { index, t } as metadata (t in seconds: index / fps,
// the nominal time; exact for a constant-rate video or with --fps, where ffmpeg's fps filter makes it so).
// Two ways to read it:
// - pulled (`frames`, an async iterable): the stream asks for a frame only when a slot is free; the pipe
//   fills and ffmpeg waits. Nothing is lost. What `--policy block` uses.
// - pushed (`live`, an Observable): frames are pushed as they come and the stream's drop policy decides.
//   A file is paced to its frame times (frame i at start + t_i), as a camera would deliver it; ffmpeg's
//   own `-re` paces the input instead, which with `--fps` above the file's rate pushes bursts of copies.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { Observable } from 'rxjs';
import { Tensor } from '../tensor/tensor.ts';
import { MediaError, ffmpegSays, lastLine } from './errors.ts';
import { ffmpegPath } from './ffmpeg.ts';
import { readFrames, type FrameReadResult } from './frame-reader.ts';
import { rgbToPlanar, type Normalisation } from './pixels.ts';

export interface VideoFrameMeta {
  readonly index: number;
  /** Seconds from the start of the video. */
  readonly t: number;
  /** The decoded frame (W*H*3 RGB), kept only when frames are to be drawn on. */
  readonly rgb?: Buffer;
}

export interface VideoFrame {
  readonly input: Tensor;
  readonly meta: VideoFrameMeta;
}

export interface VideoSourceOptions {
  readonly width: number;
  readonly height: number;
  readonly normalisation: Normalisation;
  /** Resample to this rate (ffmpeg's fps filter); default: the video's own frames. */
  readonly fps?: number;
  /** The video's rate, for timestamps when `fps` is not given (default 25 when unknown). */
  readonly sourceFps?: number;
  /** Stop after this many frames. */
  readonly maxFrames?: number;
  /** Keep each frame's RGB bytes in its metadata (for drawing). */
  readonly keepRgb?: boolean;
  /** Push frames at their frame times rather than as fast as ffmpeg decodes (for a file). */
  readonly realtime?: boolean;
}

export class VideoSource {
  private readonly child: ChildProcessByStdio<null, Readable, Readable>;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private stopped = false;
  private readonly frameBytes: number;
  private readonly read: FrameReadResult = { trailing: 0 };
  /** Frames decoded so far. */
  decoded = 0;

  constructor(
    readonly file: string,
    private readonly options: VideoSourceOptions,
  ) {
    const { width, height, fps } = options;
    this.frameBytes = width * height * 3;
    const args = [
      '-hide_banner', '-nostdin', '-loglevel', 'error',
      '-i', file,
      ...(fps ? ['-vf', `fps=${fps}`] : []),
      ...(options.maxFrames ? ['-frames:v', String(options.maxFrames)] : []),
      '-an', '-sn', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, 'pipe:1',
    ];
    // Its own process group: a Ctrl-C in the terminal reaches flowinfer only, which then stops ffmpeg
    // itself (ffmpeg catching the SIGINT would end its output early and look like the end of the video).
    this.child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child.stderr.setEncoding('utf8').on('data', (s: string) => (this.stderr += s));
    this.exited = new Promise((resolve) => {
      this.child.on('error', (e) => {
        this.stderr += `\ncannot start ffmpeg (${ffmpegPath()}): ${e.message}`;
        resolve(-1);
      });
      this.child.on('close', (code) => resolve(code));
    });
  }

  /** Whether a file is best read at its own pace when pushed (a regular file, not a device or a URL). */
  static isFile(input: string): boolean {
    try {
      return statSync(input).isFile();
    } catch {
      return false;
    }
  }

  private toFrame(rgb: Buffer, index: number): VideoFrame {
    const { width, height, normalisation, keepRgb } = this.options;
    const data = new Float32Array(3 * width * height);
    rgbToPlanar(rgb, width, height, normalisation, data);
    const rate = this.options.fps ?? this.options.sourceFps ?? 25;
    return { input: Tensor.f32([1, 3, height, width], data), meta: { index, t: Math.round((index / rate) * 1e6) / 1e6, ...(keepRgb ? { rgb } : {}) } };
  }

  /** Pulled frames; ends with a MediaError if ffmpeg fails (after the frames it did decode). */
  async *frames(): AsyncGenerator<VideoFrame> {
    try {
      for await (const rgb of readFrames(this.child.stdout, this.frameBytes, this.read)) {
        yield this.toFrame(rgb, this.decoded++);
      }
      await this.check();
    } finally {
      this.stop();
    }
  }

  /** Pushed frames (at their frame times when `realtime`); unsubscribing stops ffmpeg. */
  live(): Observable<VideoFrame> {
    return new Observable<VideoFrame>((subscriber) => {
      const it = this.frames();
      void (async () => {
        try {
          let start: number | undefined;
          for (;;) {
            const r = await it.next();
            if (r.done || subscriber.closed) break;
            if (this.options.realtime) {
              start ??= performance.now();
              const wait = start + r.value.meta.t * 1000 - performance.now();
              if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
              if (subscriber.closed) break;
            }
            subscriber.next(r.value);
          }
          subscriber.complete();
        } catch (e) {
          subscriber.error(e);
        }
      })();
      return () => {
        void it.return(undefined);
        this.stop();
      };
    });
  }

  /** After the last frame: ffmpeg's exit status, as an error naming the file and quoting ffmpeg. */
  private async check(): Promise<void> {
    const code = await this.exited;
    if (this.stopped) return;
    if (code !== 0) throw new MediaError(`cannot decode ${this.file} (ffmpeg exit code ${String(code)}): ${ffmpegSays(this.file, this.stderr)}`);
    if (this.decoded === 0) throw new MediaError(`${this.file}: ffmpeg decoded no frames`);
  }

  /** ffmpeg's complaints that did not stop it (a damaged stretch of the file): count and the last one. */
  get warnings(): { count: number; last: string } {
    const lines = this.stderr.split(/\r?\n/).filter((l) => l.trim());
    return { count: lines.length, last: lastLine(this.stderr) };
  }

  /** Bytes at the end that did not make a whole frame (a cut pipe); 0 normally. */
  get trailingBytes(): number {
    return this.read.trailing;
  }

  /** Stops ffmpeg (idempotent). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child.stdout.destroy();
  }

  /** Resolves once ffmpeg has exited. */
  async closed(): Promise<void> {
    await this.exited;
  }
}
