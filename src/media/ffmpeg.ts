// The ffmpeg binary (from @ffmpeg-installer/ffmpeg: no system install needed) and what `ffmpeg -i FILE`
// tells about a video. There is no ffprobe in that package, so the stream header ffmpeg prints to stderr
// is parsed: "Duration: 00:00:02.00" and "Stream #0:0(und): Video: h264 ..., 64x64 [SAR 1:1 ...], 10 fps".

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { MediaError, ffmpegSays } from './errors.ts';

const require = createRequire(import.meta.url);

/** Path of the ffmpeg binary; FLOWINFER_FFMPEG overrides it (a system ffmpeg with more codecs). */
export function ffmpegPath(): string {
  return process.env.FLOWINFER_FFMPEG || (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

export interface VideoInfo {
  readonly width: number;
  readonly height: number;
  /** Frames per second ("fps", else "tbr"); undefined when ffmpeg does not say. */
  readonly fps: number | undefined;
  /** Seconds; undefined for live sources ("Duration: N/A"). */
  readonly durationS: number | undefined;
  readonly codec: string;
}

/** Parses ffmpeg's input description; undefined if it has no video stream. */
export function parseVideoInfo(stderr: string): VideoInfo | undefined {
  const stream = /Stream #\d+:\d+.*?: Video: ([^,\s]+).*?, (\d+)x(\d+)[,\s].*/.exec(stderr);
  if (!stream) return undefined;
  const line = stream[0];
  const fps = /([\d.]+)(k?) fps/.exec(line) ?? /([\d.]+)(k?) tbr/.exec(line);
  const duration = /Duration: (\d+):(\d+):([\d.]+)/.exec(stderr);
  return {
    codec: stream[1]!,
    width: Number(stream[2]),
    height: Number(stream[3]),
    fps: fps ? Number(fps[1]) * (fps[2] ? 1000 : 1) : undefined,
    durationS: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : undefined,
  };
}

/** Runs ffmpeg with `args`; resolves with its exit code and stderr. */
export function runFfmpeg(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', (e) => reject(new MediaError(`cannot start ffmpeg (${ffmpegPath()}): ${e.message}`)));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** What ffmpeg sees in `file`; a MediaError naming the file and quoting ffmpeg when it cannot read it. */
export async function probeVideo(file: string): Promise<VideoInfo> {
  // With no output ffmpeg exits 1 after describing the input ("At least one output file must be specified").
  const { stderr } = await runFfmpeg(['-i', file]);
  if (!/Input #0/.test(stderr)) throw new MediaError(`cannot read video ${file}: ${ffmpegSays(file, stderr)}`);
  const info = parseVideoInfo(stderr);
  if (!info) throw new MediaError(`${file} has no video stream (ffmpeg found: ${/Stream #.*/.exec(stderr)?.[0] ?? 'no streams'})`);
  return info;
}
