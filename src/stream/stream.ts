// model.stream(source): frames in, results out, as an Observable.
//
// 1. Frames come from the source: pulled (async iterable, Node stream) only while a slot is free, or pushed
//    (Observable) into a bounded queue ruled by the drop policy.
// 2. `batch` frames are gathered into one batch (or fewer after maxWaitMs) and admitted together.
// 3. Up to `maxInFlight` batches run at once, each in its own arena slot, at different depths of the graph.
// 4. Results are emitted in input order (or as they finish), carrying each frame's metadata.
// Unsubscribing cancels the frames in flight (their slots free once their running steps end) and stops
// the source. Nothing here touches tensor bytes beyond gathering and splitting batches.

import { Observable, isObservable, type Subscriber, type Subscription } from 'rxjs';
import { FlowinferError } from '../errors.ts';
import type { ModelInputs, ModelOutputs } from '../runtime/io.ts';
import { gatherBatch, splitBatch } from './batch.ts';
import type { Frame, FrameMetrics, FrameSource, StreamOptions, StreamResult } from './types.ts';

export interface FrameOutcome {
  readonly outputs: ModelOutputs;
  readonly nodeMs: FrameMetrics['nodeMs'];
}

/** What runs the frames: a model with enough arena slots. */
export interface FrameRunner {
  run(input: ModelInputs): { done: Promise<FrameOutcome>; cancel(): void };
  /** Called once per finished frame (or batch), for `model.metrics$`. */
  onMetrics?(m: FrameMetrics): void;
}

interface Pending<M> {
  readonly index: number;
  readonly frame: Frame<M>;
}

interface Unit<M> {
  readonly frames: Pending<M>[];
  cancel(): void;
}

export class StreamError extends FlowinferError {
  override name = 'StreamError';
}

function toFrame<M>(x: Frame<M> | ModelInputs): Frame<M> {
  const looksLikeFrame = typeof x === 'object' && x !== null && 'input' in x && !('data' in x);
  return looksLikeFrame ? (x as Frame<M>) : { input: x as ModelInputs };
}

function describeFrame(p: Pending<unknown>): string {
  const meta = p.frame.meta === undefined ? '' : ` (${typeof p.frame.meta === 'object' ? JSON.stringify(p.frame.meta) : String(p.frame.meta)})`;
  return `frame ${p.index}${meta}`;
}

export function streamFrames<M>(runner: FrameRunner, source: FrameSource<M>, options: StreamOptions = {}): Observable<StreamResult<M>> {
  const maxInFlight = Math.max(1, options.maxInFlight ?? 2);
  const batch = Math.max(1, options.batch ?? 1);
  const maxWaitMs = options.maxWaitMs ?? 10;
  const policy = options.policy ?? 'block';
  const maxQueue = Math.max(1, options.maxQueue ?? (policy === 'drop-oldest' ? 1 : 64));
  const ordered = options.ordered ?? true;

  return new Observable<StreamResult<M>>((subscriber: Subscriber<StreamResult<M>>) => {
    let nextIndex = 0;
    let dropped = 0;
    let sourceDone = false;
    /** A source that failed: the frames it gave before failing still run; then the stream errors. */
    let sourceError: unknown;
    let stopped = false;
    const queue: Pending<M>[] = []; // pushed frames waiting for a slot
    let gathering: Pending<M>[] = []; // frames of the batch being gathered
    let gatherTimer: ReturnType<typeof setTimeout> | undefined;
    const inFlight = new Set<Unit<M>>();
    const finished = new Map<number, StreamResult<M> | 'dropped'>();
    let nextToEmit = 0;
    let pulling = false;
    let sourceSub: Subscription | undefined;
    let iterator: AsyncIterator<Frame<M> | ModelInputs> | undefined;

    const emitReady = () => {
      for (;;) {
        const r = finished.get(nextToEmit);
        if (r === undefined) break;
        finished.delete(nextToEmit++);
        if (r !== 'dropped') subscriber.next(r);
      }
    };
    const deliver = (index: number, r: StreamResult<M> | 'dropped') => {
      if (stopped) return;
      if (!ordered) {
        if (r !== 'dropped') subscriber.next(r);
        return;
      }
      finished.set(index, r);
      emitReady();
    };
    const fail = (e: unknown) => {
      if (stopped) return;
      stop();
      subscriber.error(e);
    };
    const maybeComplete = () => {
      if (stopped || !sourceDone || inFlight.size || queue.length || gathering.length) return;
      stop();
      if (sourceError !== undefined) subscriber.error(sourceError);
      else subscriber.complete();
    };
    const sourceFailed = (e: unknown) => {
      sourceDone = true;
      sourceError = e ?? new StreamError('the source failed');
      pump();
    };
    const drop = (p: Pending<M>) => {
      dropped++;
      deliver(p.index, 'dropped');
    };

    const launch = (frames: Pending<M>[]) => {
      const started = performance.now();
      let input: ModelInputs;
      try {
        input = frames.length === 1 && batch === 1 ? frames[0]!.frame.input : gatherBatch(frames.map((p) => p.frame.input), batch);
      } catch (e) {
        fail(e);
        return;
      }
      const handle = runner.run(input);
      const unit: Unit<M> = { frames, cancel: handle.cancel };
      inFlight.add(unit);
      handle.done.then(
        ({ outputs, nodeMs }) => {
          inFlight.delete(unit);
          const latencyMs = performance.now() - started;
          runner.onMetrics?.({ source: 'stream', index: frames[0]!.index, latencyMs, nodeMs, inFlight: inFlight.size, queued: queue.length + gathering.length, dropped });
          const parts = batch === 1 ? [outputs] : splitBatch(outputs, batch);
          frames.forEach((p, i) => deliver(p.index, { index: p.index, meta: p.frame.meta, outputs: parts[i]!, latencyMs, dropped }));
          pump();
        },
        (e: unknown) => {
          inFlight.delete(unit);
          if (stopped) return;
          const error = new StreamError(`${frames.map(describeFrame).join(', ')}: ${(e as Error).message ?? String(e)}`);
          if (options.onError === 'emit') {
            for (const p of frames) deliver(p.index, { index: p.index, meta: p.frame.meta, error, dropped });
            pump();
          } else fail(error);
        },
      );
    };

    /** Moves frames from the queue into batches and batches into free slots; reads pulled sources. */
    const pump = () => {
      if (stopped) return;
      while (inFlight.size < maxInFlight && (queue.length || gathering.length)) {
        while (queue.length && gathering.length < batch) gathering.push(queue.shift()!);
        if (gathering.length === batch || (sourceDone && !queue.length)) {
          clearTimeout(gatherTimer);
          gatherTimer = undefined;
          const frames = gathering;
          gathering = [];
          launch(frames);
        } else {
          gatherTimer ??= setTimeout(() => {
            gatherTimer = undefined;
            if (gathering.length && inFlight.size < maxInFlight) {
              const frames = gathering;
              gathering = [];
              launch(frames);
            }
          }, maxWaitMs);
          break;
        }
      }
      if (iterator && !pulling && !sourceDone && inFlight.size < maxInFlight && queue.length === 0) void pull();
      maybeComplete();
    };

    const accept = (x: Frame<M> | ModelInputs) => {
      const p: Pending<M> = { index: nextIndex++, frame: toFrame(x) };
      const busy = inFlight.size >= maxInFlight;
      if (busy && policy === 'drop-newest') return drop(p);
      if (busy && queue.length >= maxQueue) {
        if (policy === 'drop-oldest') drop(queue.shift()!);
        else return fail(new StreamError(`the source pushed frame ${p.index} while all ${maxInFlight} slots were busy and ${maxQueue} frames were queued: an Observable cannot be paused (use an async iterable or a Node stream, or policy 'drop-oldest' / 'drop-newest')`));
      }
      queue.push(p);
      pump();
    };

    const pull = async () => {
      pulling = true;
      try {
        while (!stopped && !sourceDone && inFlight.size < maxInFlight && queue.length < batch) {
          const r = await iterator!.next();
          if (stopped) return;
          if (r.done) sourceDone = true;
          else queue.push({ index: nextIndex++, frame: toFrame(r.value) });
          pump();
        }
      } catch (e) {
        sourceFailed(e);
      } finally {
        pulling = false;
      }
    };

    function stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(gatherTimer);
      sourceSub?.unsubscribe();
      void iterator?.return?.();
      for (const unit of inFlight) unit.cancel();
    }

    if (isObservable(source)) {
      sourceSub = source.subscribe({
        next: accept,
        error: sourceFailed,
        complete: () => {
          sourceDone = true;
          pump();
        },
      });
    } else if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      iterator = (source as AsyncIterable<Frame<M> | ModelInputs>)[Symbol.asyncIterator]();
      pump();
    } else {
      subscriber.error(new StreamError('model.stream(source): expected an Observable, an async iterable or a Node object-mode Readable'));
    }
    return stop;
  });
}
