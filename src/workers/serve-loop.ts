// The worker side of the task ring: claim tiles of the oldest open task, run them, report completion.
// Runs inside each worker thread until SHUTDOWN. See protocol.ts for the layout.

import { ENTRY, ENTRY_WORDS, ERROR_TEXT_BYTES, HEADER, RING_CAPACITY, timingCell, type RingLayout } from './protocol.ts';

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

export function serveRing(i32: Int32Array, layout: RingLayout, worker: number, runners: readonly TileRunner[]): void {
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
    if (Atomics.add(i32, e + ENTRY.DONE, 1) + 1 === tiles) {
      Atomics.add(i32, HEADER.COMPLETIONS, 1);
      Atomics.notify(i32, HEADER.COMPLETIONS);
    }
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
