// Where `flowinfer video` puts each frame's results, in frame order:
// - records (JSON lines or msgpack; stdout when no --out): frame, time, latency, and the top-k or the
//   boxes in the video's own pixels (the model saw the frame stretched to its input);
// - a video (annotated.mp4): the decoded frame with boxes or the best class drawn, at the model's size.

import { extname } from 'node:path';
import { UsageError } from '../errors.ts';
import type { VideoInfo } from '../media/ffmpeg.ts';
import { RecordWriter, recordFormat } from '../media/results.ts';
import type { VideoFrameMeta } from '../media/video-source.ts';
import { VideoSink } from '../media/video-sink.ts';
import { captionOf, drawOnRgb } from '../post/draw.ts';
import type { ImageResult, PostProcessor } from '../post/summarize.ts';
import type { ModelOutputs } from '../runtime/io.ts';
import { humanCount } from './format.ts';

export const VIDEO_EXTENSIONS = ['.mp4', '.mkv', '.mov', '.m4v', '.avi', '.webm'];

export interface FrameOutput {
  /** Whether the frames' RGB bytes are needed (kept in their metadata). */
  readonly needsPixels: boolean;
  /** Records on stdout: the summary then goes to stderr. */
  readonly toStdout: boolean;
  write(meta: VideoFrameMeta, latencyMs: number, outputs: ModelOutputs): Promise<void>;
  /** Flushes and finishes the file. */
  close(): Promise<void>;
  /** Gives up on the file (after an error elsewhere). */
  abort(): void;
  /** For the summary: where the results went. */
  describe(): string;
}

export interface OutputContext {
  readonly post: PostProcessor;
  /** The model's input: what the frames were scaled to. */
  readonly width: number;
  readonly height: number;
  readonly info: VideoInfo;
  /** Frames per second of an output video. */
  readonly rate: number;
}

/** --out checked before anything starts. */
export function checkOut(out: string | undefined): void {
  if (out && !recordFormat(out) && !VIDEO_EXTENSIONS.includes(extname(out).toLowerCase())) {
    throw new UsageError(`--out ${out}: expected results.jsonl, results.msgpack or a video (${VIDEO_EXTENSIONS.join(', ')})`);
  }
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** One frame's record: pixels to 0.1, scores to 4 decimals (what a reader of the file needs). */
export function frameRecord(meta: VideoFrameMeta, latencyMs: number, r: ImageResult): object {
  const base = { frame: meta.index, t: meta.t, latencyMs: round(latencyMs, 2) };
  if (r.top) return { ...base, top: r.top.map((s) => ({ ...s, score: round(s.score, 4) })) };
  if (r.boxes) {
    return {
      ...base,
      boxes: r.boxes.map((b) => ({
        x1: round(b.x1, 1), y1: round(b.y1, 1), x2: round(b.x2, 1), y2: round(b.y2, 1), score: round(b.score, 4), classId: b.classId, ...(b.label ? { label: b.label } : {}),
      })),
    };
  }
  return { ...base, outputs: r.outputs };
}

class RecordsOutput implements FrameOutput {
  readonly needsPixels = false;
  private readonly writer: RecordWriter;

  constructor(out: string | undefined, private readonly c: OutputContext) {
    this.writer = new RecordWriter(out, out ? recordFormat(out) : 'jsonl');
  }

  async write(meta: VideoFrameMeta, latencyMs: number, outputs: ModelOutputs): Promise<void> {
    const { width, height, info } = this.c;
    this.writer.write(frameRecord(meta, latencyMs, this.c.post.image(outputs, 0, { inputWidth: width, inputHeight: height, width: info.width, height: info.height })));
  }

  async close(): Promise<void> {
    this.writer.close();
  }

  abort(): void {
    this.writer.close();
  }

  get toStdout(): boolean {
    return this.writer.file === undefined;
  }

  describe(): string {
    const w = this.writer;
    return `${w.file ?? 'stdout'}: ${w.records} ${w.format === 'msgpack' ? 'msgpack records' : 'JSON lines'} (${humanCount(w.bytes)}B)`;
  }
}

class AnnotatedOutput implements FrameOutput {
  readonly needsPixels = true;
  readonly toStdout = false;
  private readonly sink: VideoSink;
  private lastWritten = -1;

  constructor(out: string, private readonly c: OutputContext) {
    if (c.post.kind.kind === 'raw') throw new UsageError(`--out ${out} draws classes or boxes, but the model's output is neither (N, classes) nor (N, boxes, 5+classes)`);
    this.sink = new VideoSink(out, c.width, c.height, c.rate);
  }

  async write(meta: VideoFrameMeta, _latencyMs: number, outputs: ModelOutputs): Promise<void> {
    const { width, height } = this.c;
    const result = this.c.post.image(outputs, 0, { inputWidth: width, inputHeight: height, width, height });
    const drawn = await drawOnRgb(meta.rgb!, width, height, result.boxes ?? [], captionOf(result.top));
    // Frames dropped before this one are filled with it, so that the video keeps its length and pace.
    for (let i = this.lastWritten; i < meta.index; i++) await this.sink.write(drawn);
    this.lastWritten = meta.index;
  }

  close(): Promise<void> {
    return this.sink.close();
  }

  abort(): void {
    this.sink.abort();
  }

  describe(): string {
    return `${this.sink.file}: ${this.sink.written} frames at ${this.c.rate} frames/s`;
  }
}

export function openOutput(out: string | undefined, context: OutputContext): FrameOutput {
  return out && !recordFormat(out) ? new AnnotatedOutput(out, context) : new RecordsOutput(out, context);
}
