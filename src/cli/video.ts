// `flowinfer video <input> --model <param|zoo:...> [--size WxH] [--fps N] [--batch n] [--in-flight k]
// [--policy block|drop-oldest|drop-newest] [--out results.jsonl | results.msgpack | annotated.mp4] [--profile]`
//
// 1. ffmpeg describes the input (size, rate, duration: the frame total for the progress bar); a file it
//    cannot read stops here with its words.
// 2. The model opens at the input size asked for (or its own), with k arena slots, and runs once.
// 3. A second look at the input, through ffmpeg again: raw RGB frames at the model's size, pulled under
//    `block` (ffmpeg waits while every slot is busy), pushed at the video's pace under the drop policies.
// 4. model.stream runs them, results in frame order: records (JSON lines or msgpack: frame, time, top-k
//    or boxes in the video's pixels) or frames with boxes drawn, encoded by another ffmpeg.
// 5. The end: normal, an error (one line), or Ctrl-C: ffmpeg stopped, what is done flushed (whole
//    records), the summary printed, exit status 130.

import { concatMap, type Subscription } from 'rxjs';
import { UsageError } from '../errors.ts';
import { probeVideo, type VideoInfo } from '../media/ffmpeg.ts';
import { VideoSource, type VideoFrameMeta } from '../media/video-source.ts';
import type { DropPolicy, StreamResult } from '../stream/types.ts';
import { Tensor } from '../tensor/tensor.ts';
import { openPixelModel, type PixelModel, type PixelModelOptions } from './image-model.ts';
import { checkOut, openOutput, type FrameOutput } from './video-output.ts';
import { VideoProgress } from './video-progress.ts';
import { videoSummary } from './video-summary.ts';

export interface VideoOptions extends PixelModelOptions {
  readonly model: string;
  readonly fps?: number;
  readonly inFlight?: number;
  readonly policy?: string;
  readonly out?: string;
  readonly profile?: boolean;
  /** Stop after this many frames. */
  readonly frames?: number;
}

const POLICIES: readonly DropPolicy[] = ['block', 'drop-oldest', 'drop-newest'];

function checkOptions(o: VideoOptions): { policy: DropPolicy; inFlight: number } {
  const policy = POLICIES.find((p) => p === (o.policy ?? 'block'));
  if (!policy) throw new UsageError(`--policy ${o.policy}: expected ${POLICIES.join(', ')}`);
  const inFlight = o.inFlight ?? 2;
  if (!Number.isInteger(inFlight) || inFlight < 1) throw new UsageError(`--in-flight ${String(o.inFlight)}: expected a positive integer`);
  if (o.fps !== undefined && !(o.fps > 0)) throw new UsageError(`--fps ${o.fps}: expected a positive rate`);
  if (o.frames !== undefined && !(Number.isInteger(o.frames) && o.frames > 0)) throw new UsageError(`--frames ${o.frames}: expected a positive integer`);
  checkOut(o.out);
  return { policy, inFlight };
}

/** Frames the video should hold: duration x rate, when ffmpeg told both. */
function expectedFrames(info: VideoInfo, fps: number | undefined, limit: number | undefined): number | undefined {
  const rate = fps ?? info.fps;
  const n = info.durationS !== undefined && rate !== undefined ? Math.round(info.durationS * rate) : undefined;
  return limit !== undefined ? Math.min(limit, n ?? limit) : n;
}

export async function videoCommand(input: string, options: VideoOptions): Promise<string> {
  const checked = checkOptions(options);
  const policy = checked.policy;
  // The reference engine runs one frame at a time on the main thread (one slot): more in flight would
  // only queue, and ask the model for slots it cannot have.
  const inFlight = options.engine === 'reference' ? 1 : checked.inFlight;
  // Ctrl-C from here on ends cleanly (a second one ends at once); so does a reader of the records on
  // stdout going away (`| head`: EPIPE).
  let interrupt: (() => void) | undefined;
  let stopped: 'ctrl-c' | 'stdout closed' | undefined;
  const stop = (why: 'ctrl-c' | 'stdout closed') => {
    if (stopped === 'ctrl-c' && why === 'ctrl-c') process.exit(130);
    stopped ??= why;
    interrupt?.();
  };
  const onSigint = () => stop('ctrl-c');
  const onStdoutError = () => stop('stdout closed');
  process.on('SIGINT', onSigint);
  const started = performance.now();
  let pm: PixelModel | undefined;
  let source: VideoSource | undefined;
  let output: FrameOutput | undefined;
  let progress: VideoProgress | undefined;
  try {
    const info = await probeVideo(input);
    pm = await openPixelModel(options.model, { ...options, slots: inFlight });
    const { model, width, height, post } = pm;
    const rate = options.fps ?? info.fps ?? 25;
    output = openOutput(options.out, { post, width, height, info, rate });
    if (output.toStdout) process.stdout.on('error', onStdoutError);
    // Warm-up before ffmpeg starts: the fast engine's first run builds it and starts the workers (a second
    // or so), which a live source would otherwise pay in dropped frames and every summary in its p99.
    // (The reference engine has nothing to start: a run there is only a slow frame.)
    const warmStart = performance.now();
    if (model.engineName === 'fast') await model.run(Tensor.zeros([pm.batch, 3, height, width]));
    const warmMs = performance.now() - warmStart;
    source = new VideoSource(input, {
      width, height, normalisation: pm.normalisation, fps: options.fps, sourceFps: info.fps, maxFrames: options.frames,
      keepRgb: output.needsPixels,
      // A file pushed as fast as it decodes would be dropped almost whole; a device or a URL has its own pace.
      realtime: policy !== 'block' && VideoSource.isFile(input),
    });
    const total = expectedFrames(info, options.fps, options.frames);
    progress = new VideoProgress(total);
    const frames = policy === 'block' ? source.frames() : source.live();
    const runStart = performance.now();
    progress.start(model.metrics$);
    const out = output;
    const bar = progress;
    const handle = async (r: StreamResult<VideoFrameMeta>) => {
      if (r.error) throw r.error;
      await out.write(r.meta!, r.latencyMs, r.outputs);
      bar.frameDone(r.dropped);
    };
    let subscription: Subscription | undefined;
    await new Promise<void>((resolve, reject) => {
      interrupt = () => {
        subscription?.unsubscribe();
        source!.stop();
        resolve();
      };
      if (stopped) return interrupt();
      subscription = model.stream<VideoFrameMeta>(frames, { maxInFlight: inFlight, batch: pm!.batch, policy, ordered: true })
        .pipe(concatMap(handle))
        .subscribe({ complete: resolve, error: reject });
    });
    const framesMs = performance.now() - runStart;
    // Drops at the very end reach no later result: the decoder's count settles them.
    const dropped = stopped ? progress.dropped : Math.max(progress.dropped, source.decoded - progress.done);
    progress.stop(dropped);
    progress = undefined;
    await output.close();
    const summary = videoSummary({
      input, info, spec: options.model, pm, fps: options.fps, policy, inFlight, progress: bar, dropped, source, output, stopped,
      loadMs: warmStart - started, warmMs, framesMs, profile: options.profile ?? false,
    });
    if (stopped === 'ctrl-c') process.exitCode = 130;
    // Records on stdout keep stdout for themselves.
    if (output.toStdout) {
      process.stderr.write(`${summary}\n`);
      return '';
    }
    return summary;
  } catch (e) {
    progress?.stop();
    output?.abort();
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    process.stdout.off('error', onStdoutError);
    source?.stop();
    await pm?.model.dispose();
  }
}
