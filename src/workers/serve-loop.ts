// The worker side of the task ring: claim tiles of the oldest open task, run them, report completion.
// Runs inside each worker thread until SHUTDOWN. See protocol.ts for the layout.

import { ENTRY, ENTRY_WORDS, ERROR_TEXT_BYTES, FRAME, frameWord, HEADER, remainingWord, RING_CAPACITY, timingCell, type RingLayout } from './protocol.ts';
import { publish } from './publish.ts';

/** Runs tile `tile` of one node for the frame in `slot`. */
export type TileRunner = (tile: number, slot: number) => void;

/**
 * Poll TAIL this long before sleeping in Atomics.wait: while a frame is in flight the next task usually
 * follows within tens of microseconds (the main thread's reaction to a completion), and waking from
 * Atomics.wait costs as much again. Measured on a chain of 50 tiny steps (2 cores, load ~3): 101 us per
 * step without spinning, 56-64 us with 50 us, 62-72 us with 200 us. FLOWINFER_SPIN_US overrides it.
 */
const SPIN_MS = Number(process.env.FLOWINFER_SPIN_US ?? 50) / 1000;
/** Sleep at most this long, so a lost notify can only delay, never hang. */
const WAIT_MS = 50;

/** What a worker needs to chain a frame's steps: each step's tiles and the steps that depend on it. */
export interface Schedule {
  readonly tiles: readonly number[];
  readonly successors: readonly (readonly number[])[];
}

export function serveRing(i32: Int32Array, layout: RingLayout, worker: number, runners: readonly TileRunner[], schedule?: Schedule): void {
  const ring = layout.ringBase / 4;
  const timings = layout.steps > 0 ? new Float64Array(i32.buffer, layout.timingBase, layout.workers * layout.slots * layout.steps) : undefined;
  let idleSince = -1;
  for (;;) {
    if (Atomics.load(i32, HEADER.SHUTDOWN) !== 0) return;
    const head = Atomics.load(i32, HEADER.HEAD);
    const tail = Atomics.load(i32, HEADER.TAIL);
    if (head === tail) {
      const now = performance.now();
      if (idleSince < 0) idleSince = now;
      if (now - idleSince < SPIN_MS) continue;
      Atomics.wait(i32, HEADER.TAIL, tail, WAIT_MS);
      idleSince = -1;
      continue;
    }
    idleSince = -1;
    const e = ring + (head % RING_CAPACITY) * ENTRY_WORDS;
    const claim = Atomics.load(i32, e + ENTRY.CLAIM);
    if (claim >>> 16 !== (head & 0xffff)) continue; // HEAD moved on while we looked; look again
    const next = claim & 0xffff;
    const tiles = Atomics.load(i32, e + ENTRY.TILES);
    if (next >= tiles) {
      Atomics.compareExchange(i32, HEADER.HEAD, head, head + 1);
      continue;
    }
    const node = Atomics.load(i32, e + ENTRY.NODE);
    const slot = Atomics.load(i32, e + ENTRY.SLOT);
    if (Atomics.compareExchange(i32, e + ENTRY.CLAIM, claim, claim + 1) !== claim) continue;
    const started = performance.now();
    try {
      runners[node]!(next, slot);
      if (timings) timings[timingCell(layout, worker, slot, node)]! += performance.now() - started;
    } catch (err) {
      writeErrorText(i32, layout, worker, err);
      Atomics.store(i32, e + ENTRY.FAILED, worker + 1);
      Atomics.add(i32, HEADER.FAILURES, 1);
    }
    if (Atomics.add(i32, e + ENTRY.DONE, 1) + 1 === tiles) complete(i32, layout, schedule, e, node, slot);
  }
}

/**
 * The last tile of a task is done. A collected frame's task waits for the main thread (COMPLETIONS). A
 * chained frame's task counts down its successors and publishes those now ready, then frees its entry;
 * the frame has settled when its last running task ends.
 */
function complete(i32: Int32Array, layout: RingLayout, schedule: Schedule | undefined, e: number, step: number, slot: number): void {
  if (!schedule || Atomics.load(i32, frameWord(layout, slot, FRAME.CHAINED)) === 0) {
    Atomics.add(i32, HEADER.COMPLETIONS, 1);
    Atomics.notify(i32, HEADER.COMPLETIONS);
    return;
  }
  const failedWorker = Atomics.load(i32, e + ENTRY.FAILED);
  const failed = failedWorker !== 0;
  if (failed && Atomics.compareExchange(i32, frameWord(layout, slot, FRAME.FAILED_STEP), 0, step + 1) === 0) {
    Atomics.store(i32, frameWord(layout, slot, FRAME.FAILED_WORKER), failedWorker);
  }
  const stopped = failed || Atomics.load(i32, frameWord(layout, slot, FRAME.FAILED_STEP)) !== 0 ||
    Atomics.load(i32, frameWord(layout, slot, FRAME.CANCELLED)) !== 0;
  if (!stopped) {
    for (const next of schedule.successors[step]!) {
      if (Atomics.sub(i32, remainingWord(layout, slot, next), 1) === 1) {
        Atomics.add(i32, frameWord(layout, slot, FRAME.RUNNING), 1);
        publish(i32, layout, next, slot, schedule.tiles[next]!);
      }
    }
    Atomics.add(i32, frameWord(layout, slot, FRAME.DONE), 1);
  }
  Atomics.store(i32, e + ENTRY.STATE, 0);
  if (Atomics.sub(i32, frameWord(layout, slot, FRAME.RUNNING), 1) === 1) {
    Atomics.add(i32, HEADER.SETTLED, 1);
    Atomics.notify(i32, HEADER.SETTLED);
  }
}

function writeErrorText(i32: Int32Array, layout: RingLayout, worker: number, err: unknown): void {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const bytes = new TextEncoder().encode(text).subarray(0, ERROR_TEXT_BYTES - 4);
  const base = layout.errorBase + worker * ERROR_TEXT_BYTES;
  const u8 = new Uint8Array(i32.buffer, base + 4, bytes.length);
  u8.set(bytes);
  Atomics.store(i32, base / 4, bytes.length);
}

/** The main thread's read of a worker's last error text. */
export function readErrorText(i32: Int32Array, layout: RingLayout, worker: number): string {
  const base = layout.errorBase + worker * ERROR_TEXT_BYTES;
  const length = Atomics.load(i32, base / 4);
  return new TextDecoder().decode(new Uint8Array(i32.buffer, base + 4, length).slice());
}
