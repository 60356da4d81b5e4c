// Publishing a task into the ring, from any thread (the main thread, or a worker chaining a frame's next
// step): reserve a position, wait until its entry is free, fill it, then commit positions in order so
// that workers never see a half-written entry.
//
// An entry is free when its previous occupant (a lap earlier) has completed (STATE 0) and every worker has
// moved past it (HEAD beyond it): a worker still looking at the old position must not see a new task
// there, or it would wait forever for the old one. With RING_CAPACITY far above the tasks in flight
// (the build checks), neither wait ever spins in practice.

import { ENTRY, ENTRY_WORDS, HEADER, RING_CAPACITY, type RingLayout } from './protocol.ts';

/** Publishes (step, slot, tiles); returns the ring position. */
export function publish(i32: Int32Array, layout: RingLayout, step: number, slot: number, tiles: number): number {
  const position = Atomics.add(i32, HEADER.RESERVE, 1);
  const e = layout.ringBase / 4 + (position % RING_CAPACITY) * ENTRY_WORDS;
  while (Atomics.load(i32, e + ENTRY.STATE) !== 0 || Atomics.load(i32, HEADER.HEAD) <= position - RING_CAPACITY) {
    // The entry's previous occupant is still running: rare, brief.
  }
  Atomics.store(i32, e + ENTRY.STATE, 1);
  Atomics.store(i32, e + ENTRY.DONE, 0);
  Atomics.store(i32, e + ENTRY.NODE, step);
  Atomics.store(i32, e + ENTRY.SLOT, slot);
  Atomics.store(i32, e + ENTRY.TILES, tiles);
  Atomics.store(i32, e + ENTRY.FAILED, 0);
  Atomics.store(i32, e + ENTRY.CLAIM, (position & 0xffff) << 16);
  // Commit in order: an earlier reservation must be visible first.
  while (Atomics.load(i32, HEADER.TAIL) !== position) {
    // Another publisher is filling the entry before ours.
  }
  Atomics.store(i32, HEADER.TAIL, position + 1);
  Atomics.notify(i32, HEADER.TAIL);
  return position;
}
