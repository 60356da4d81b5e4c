// The main thread's side of chained frames (protocol.ts): set a slot's dependency counters, publish the
// steps that depend on nothing, and wait (Atomics.waitAsync on SETTLED) until the workers, which publish
// every further step themselves, report that the frame's last running task has ended.

import { FlowinferError } from '../errors.ts';
import { FRAME, FRAME_WORDS, frameWord, HEADER, remainingWord, type RingLayout } from './protocol.ts';
import { publish } from './publish.ts';
import { readErrorText } from './serve-loop.ts';
import { TaskFailure } from './task-ring.ts';
import { CounterWatch } from './counter-watch.ts';

export class FrameCancelled extends FlowinferError {
  override name = 'FrameCancelled';
}

interface Waiting {
  resolve(): void;
  reject(e: Error): void;
}

export class FrameChain {
  private readonly dependencies: Int32Array;
  private readonly roots: number[];
  private readonly waiting = new Map<number, Waiting>();
  private readonly settled: CounterWatch;

  constructor(
    private readonly i32: Int32Array,
    private readonly layout: RingLayout,
    deps: readonly (readonly number[])[],
    private readonly tiles: readonly number[],
    private readonly describe: (step: number) => string,
  ) {
    this.dependencies = Int32Array.from(deps, (d) => new Set(d).size);
    this.settled = new CounterWatch(i32, HEADER.SETTLED, () => this.check());
    this.roots = deps.flatMap((d, i) => (d.length === 0 ? [i] : []));
  }

  /** Runs every step of the frame in `slot` (its inputs in place); resolves when all are done. */
  run(slot: number): Promise<void> {
    const { i32, layout } = this;
    const frame = frameWord(layout, slot, 0);
    i32.fill(0, frame, frame + FRAME_WORDS);
    i32.set(this.dependencies, remainingWord(layout, slot, 0));
    Atomics.store(i32, frame + FRAME.CHAINED, 1);
    Atomics.store(i32, frame + FRAME.RUNNING, this.roots.length);
    const done = new Promise<void>((resolve, reject) => this.waiting.set(slot, { resolve, reject }));
    for (const step of this.roots) publish(i32, layout, step, slot, this.tiles[step]!);
    this.check();
    return done;
  }

  /** No further step of the frame in `slot` is published; it rejects with FrameCancelled once settled. */
  cancel(slot: number): void {
    Atomics.store(this.i32, frameWord(this.layout, slot, FRAME.CANCELLED), 1);
  }

  private check(): void {
    const { i32, layout } = this;
    const seen = this.settled.read();
    for (const [slot, w] of this.waiting) {
      if (Atomics.load(i32, frameWord(layout, slot, FRAME.RUNNING)) !== 0) continue;
      this.waiting.delete(slot);
      const failedStep = Atomics.load(i32, frameWord(layout, slot, FRAME.FAILED_STEP));
      const done = Atomics.load(i32, frameWord(layout, slot, FRAME.DONE));
      if (failedStep) {
        const worker = Atomics.load(i32, frameWord(layout, slot, FRAME.FAILED_WORKER)) - 1;
        w.reject(new TaskFailure(`${this.describe(failedStep - 1)} failed in worker ${worker}: ${readErrorText(i32, layout, worker)}`));
      } else if (Atomics.load(i32, frameWord(layout, slot, FRAME.CANCELLED))) w.reject(new FrameCancelled(`frame in slot ${slot} was cancelled`));
      else if (done !== this.dependencies.length) w.reject(new FlowinferError(`frame in slot ${slot} settled after ${done} of ${this.dependencies.length} steps`));
      else w.resolve();
    }
    this.settled.arm(seen, this.waiting.size > 0);
  }

  /** Rejects the frames still waiting (the pool is shutting down). */
  close(): void {
    const error = new FlowinferError('the worker pool was shut down before the frame finished');
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
    Atomics.add(this.i32, HEADER.SETTLED, 1);
    Atomics.notify(this.i32, HEADER.SETTLED);
    this.settled.arm(this.settled.read(), false);
  }
}
