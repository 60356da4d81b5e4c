// The live line of `flowinfer video`: model.metrics$ (latency, dropped) and the results (frames done)
// as a cli-progress bar on stderr, in the demo's style:
//
//   ======------------------ 24/100 frames | 31.5 frames/s | p50 28.1 ms | dropped 0
//
// The count is frames with results plus frames dropped, so that the bar reaches the total under the drop
// policies too. When the total is unknown (a live source, no duration), the bar part is left out.

import { SingleBar } from 'cli-progress';
import type { Observable, Subscription } from 'rxjs';
import { Window, percentile } from '../stream/stats.ts';
import type { FrameMetrics } from '../stream/types.ts';
import { NodeProfile } from './profile.ts';

export class VideoProgress {
  private readonly bar: SingleBar;
  private readonly live = new Window(100);
  private subscription: Subscription | undefined;
  private startedAt = 0;
  private firstAt = 0;
  private lastAt = 0;
  /** Frames with results, and frames the drop policy dropped (as the stream counts them). */
  done = 0;
  dropped = 0;
  readonly latencies: number[] = [];
  readonly profile = new NodeProfile();

  constructor(private readonly total: number | undefined) {
    const counts = total === undefined ? '{value} frames' : '{bar} {value}/{total} frames';
    this.bar = new SingleBar({
      format: ` ${counts} | {fps} frames/s | p50 {p50} ms | dropped {dropped}`,
      hideCursor: true,
      barsize: 24,
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 1000,
      stream: process.stderr,
    });
  }

  start(metrics$: Observable<FrameMetrics>): void {
    this.startedAt = performance.now();
    this.bar.start(this.total ?? 0, 0, { fps: '-', p50: '-', dropped: 0 });
    this.subscription = metrics$.subscribe((m) => {
      if (m.source !== 'stream') return;
      this.live.push(m.latencyMs);
      this.latencies.push(m.latencyMs);
      this.profile.add(m.nodeMs);
      this.dropped = Math.max(this.dropped, m.dropped);
      this.render();
    });
  }

  /** One frame's result has been written; `dropped` is the stream's count so far. */
  frameDone(dropped: number): void {
    this.done++;
    this.dropped = Math.max(this.dropped, dropped);
    this.lastAt = performance.now();
    if (this.done === 1) this.firstAt = this.lastAt;
    this.render();
  }

  private render(): void {
    this.bar.update(this.done + this.dropped, { fps: this.framesPerSecond().toFixed(1), p50: this.live.percentile(50).toFixed(1), dropped: this.dropped });
  }

  /** Frames with results per second since the start. */
  framesPerSecond(): number {
    const s = ((this.lastAt || performance.now()) - this.startedAt) / 1000;
    return s > 0 ? this.done / s : 0;
  }

  /** After the first result: leaves out the start-up (engine build, first-frame warm-up). */
  steadyFramesPerSecond(): number {
    return this.done > 1 ? (this.done - 1) / ((this.lastAt - this.firstAt) / 1000) : NaN;
  }

  latency(p: number): number {
    return percentile(this.latencies, p);
  }

  stop(finalDropped?: number): void {
    if (finalDropped !== undefined) this.dropped = finalDropped;
    this.render();
    this.subscription?.unsubscribe();
    this.bar.stop();
  }
}
