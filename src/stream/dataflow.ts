// The dataflow of one program as RxJS nodes: every step has a `done$` subject, and fires for a frame
// once every step it depends on has emitted that frame on its own `done$` (a node fed by two branches
// waits for both). Frames are told apart by their arena slot: a slot holds one frame at a time.
//
//   start$ ──► steps without dependencies ──► done$[i] ──► dependents (count arrivals per slot) ──► ...
//                                                └──► frame counter: all steps done ──► frame resolves
//
// A step that fails poisons its frame: no further step of that frame is submitted, and the frame rejects
// once its running steps have finished (so its slot is never released under a running worker).
// Cancelling a frame does the same without an error.

import { Subject, type Subscription } from 'rxjs';

export interface DataflowStep {
  readonly deps: readonly number[];
}

/** Runs one step of the frame in `slot`; resolves when the workers are done with it. */
export type SubmitStep = (step: number, slot: number) => Promise<void>;

interface FrameState {
  readonly arrivals: Int32Array;
  finished: number;
  running: number;
  error: Error | undefined;
  cancelled: boolean;
  resolve(): void;
  reject(e: Error): void;
}

export class CancelledError extends Error {
  override name = 'CancelledError';
}

export class Dataflow {
  private readonly start$ = new Subject<number>();
  private readonly done$: Subject<number>[];
  private readonly frames = new Map<number, FrameState>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly steps: readonly DataflowStep[],
    private readonly submit: SubmitStep,
  ) {
    this.done$ = steps.map(() => new Subject<number>());
    steps.forEach((step, i) => {
      const upstream = [...new Set(step.deps)];
      if (upstream.length === 0) {
        this.subscriptions.push(this.start$.subscribe((slot) => this.fire(i, slot)));
        return;
      }
      for (const d of upstream) {
        this.subscriptions.push(this.done$[d]!.subscribe((slot) => {
          const frame = this.frames.get(slot);
          if (frame && ++frame.arrivals[i]! === upstream.length) this.fire(i, slot);
        }));
      }
    });
  }

  /** Steps of frames currently running. */
  get runningFrames(): number {
    return this.frames.size;
  }

  /** Runs every step once for the frame in `slot` (whose inputs are in place). */
  run(slot: number): Promise<void> {
    if (this.frames.has(slot)) return Promise.reject(new Error(`slot ${slot} already holds a running frame`));
    return new Promise<void>((resolve, reject) => {
      this.frames.set(slot, { arrivals: new Int32Array(this.steps.length), finished: 0, running: 0, error: undefined, cancelled: false, resolve, reject });
      if (this.steps.length === 0) this.settle(slot);
      else this.start$.next(slot);
    });
  }

  /** Submits no more steps of the frame in `slot`; it rejects with CancelledError once its running steps end. */
  cancel(slot: number): void {
    const frame = this.frames.get(slot);
    if (!frame) return;
    frame.cancelled = true;
    this.settle(slot);
  }

  private fire(step: number, slot: number): void {
    const frame = this.frames.get(slot);
    if (!frame || frame.error || frame.cancelled) return;
    frame.running++;
    this.submit(step, slot).then(
      () => {
        frame.running--;
        frame.finished++;
        if (!frame.error && !frame.cancelled) this.done$[step]!.next(slot);
        this.settle(slot);
      },
      (e: unknown) => {
        frame.running--;
        frame.error ??= e instanceof Error ? e : new Error(String(e));
        this.settle(slot);
      },
    );
  }

  private settle(slot: number): void {
    const frame = this.frames.get(slot);
    if (!frame || frame.running > 0) return;
    if (frame.error) frame.reject(frame.error);
    else if (frame.cancelled) frame.reject(new CancelledError(`frame in slot ${slot} was cancelled`));
    else if (frame.finished === this.steps.length) frame.resolve();
    else return;
    this.frames.delete(slot);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    for (const slot of [...this.frames.keys()]) this.cancel(slot);
  }
}
