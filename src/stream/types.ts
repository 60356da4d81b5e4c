// The streaming API's types: what goes in, what comes out, and the options.

import type { Observable } from 'rxjs';
import type { Readable } from 'node:stream';
import type { ModelInputs, ModelOutputs } from '../runtime/io.ts';

/** A frame: the model's inputs, with optional user metadata (a frame number, a timestamp) carried through. */
export interface Frame<M = unknown> {
  readonly input: ModelInputs;
  readonly meta?: M;
}

/** Anything a frame source can be: pushed (an Observable) or pulled (an async iterable, a Node object stream). */
export type FrameSource<M = unknown> = Observable<Frame<M> | ModelInputs> | AsyncIterable<Frame<M> | ModelInputs> | Readable;

export type DropPolicy = 'block' | 'drop-oldest' | 'drop-newest';

export interface StreamOptions {
  /** Frames at different depths of the graph at once, each in its own arena slot (default 2). */
  readonly maxInFlight?: number;
  /** Emit results in input order (default) or as they finish. */
  readonly ordered?: boolean;
  /** Gather this many frames into one batch tensor (default 1: no batching). */
  readonly batch?: number;
  /** A partial batch waits at most this long for more frames (default 10 ms). */
  readonly maxWaitMs?: number;
  /**
   * When all slots are busy and a pushed frame arrives: `block` queues it (up to maxQueue, beyond which the
   * stream errors: an Observable cannot be paused), `drop-newest` drops it, `drop-oldest` drops the oldest
   * queued frame instead. Pulled sources are simply not read until a slot frees.
   */
  readonly policy?: DropPolicy;
  /** Frames a pushed source may queue under `block` (default 64); `drop-oldest` keeps this many too (default 1). */
  readonly maxQueue?: number;
  /** `error` (default): a failing frame errors the stream; `emit`: it becomes an error result and the stream goes on. */
  readonly onError?: 'error' | 'emit';
}

interface ResultBase<M> {
  /** Position of the frame in the source (0-based). */
  readonly index: number;
  readonly meta: M | undefined;
  /** Frames dropped by the policy so far. */
  readonly dropped: number;
}

export interface FrameResult<M = unknown> extends ResultBase<M> {
  readonly outputs: ModelOutputs;
  /** From admission into a slot to outputs copied out. */
  readonly latencyMs: number;
  readonly error?: undefined;
}

export interface FrameError<M = unknown> extends ResultBase<M> {
  readonly error: Error;
  readonly outputs?: undefined;
}

export type StreamResult<M = unknown> = FrameResult<M> | FrameError<M>;

/** What `model.metrics$` emits: one record per frame run (through `run` or `stream`). */
export interface FrameMetrics {
  /** `stream` frames carry their index in the source; `run` calls count from 0 per model. */
  readonly source: 'run' | 'stream';
  readonly index: number;
  /** From admission into a slot to outputs copied out. */
  readonly latencyMs: number;
  /** Worker time per node (tiles summed over threads), fast engine; time per node, reference engine. */
  readonly nodeMs: ReadonlyArray<{ readonly name: string; readonly type: string; readonly ms: number }>;
  /** Frames running or waiting in a slot, frames queued behind them, frames dropped so far (stream only). */
  readonly inFlight: number;
  readonly queued: number;
  readonly dropped: number;
}
