// The main thread's side of the task ring: publish (node, slot, tiles) tasks for the workers and resolve
// each one's promise when its last tile is done. Completions are noticed with Atomics.waitAsync on one
// counter, so one wake-up can finish many tasks and the main thread never blocks.

import { FlowinferError } from '../errors.ts';
import { ENTRY, ENTRY_WORDS, HEADER, MAX_TILES, RING_CAPACITY, type RingLayout } from './protocol.ts';
import { publish } from './publish.ts';
import { CounterWatch } from './counter-watch.ts';
import { readErrorText } from './serve-loop.ts';

export class TaskFailure extends FlowinferError {
  override name = 'TaskFailure';
}

interface Pending {
  readonly position: number;
  readonly tiles: number;
  readonly node: number;
  resolve(): void;
  reject(e: Error): void;
}

interface Waiting {
  readonly node: number;
  readonly slot: number;
  readonly tiles: number;
  resolve(): void;
  reject(e: Error): void;
}

export class TaskRing {
  private readonly pending = new Map<number, Pending>();
  private readonly backlog: Waiting[] = [];
  private seenCompletions = 0;
  private readonly completions: CounterWatch;
  private closed = false;

  constructor(
    private readonly i32: Int32Array,
    private readonly layout: RingLayout,
    private readonly describe: (node: number) => string,
  ) {
    for (const w of Object.values(HEADER)) Atomics.store(i32, w, 0);
    this.completions = new CounterWatch(i32, HEADER.COMPLETIONS, () => {
      this.collect();
      this.publish();
      this.watch();
    });
    i32.fill(0, layout.ringBase / 4, layout.ringBase / 4 + RING_CAPACITY * ENTRY_WORDS);
  }

  /** Tasks published and not yet finished. */
  get inFlight(): number {
    return this.pending.size + this.backlog.length;
  }

  /** Runs `tiles` tiles of program node `node` on `slot`; resolves when all are done. */
  submit(node: number, slot: number, tiles: number): Promise<void> {
    if (this.closed) return Promise.reject(new FlowinferError('the worker pool is shut down'));
    if (!(tiles >= 1 && tiles <= MAX_TILES)) return Promise.reject(new FlowinferError(`${this.describe(node)}: ${tiles} tiles (1..${MAX_TILES})`));
    return new Promise<void>((resolve, reject) => {
      this.backlog.push({ node, slot, tiles, resolve, reject });
      this.publish();
      this.watch();
    });
  }

  /**
   * Publishes what waits in the backlog, while the ring has room: an entry held by one of our own pending
   * tasks is freed only when we collect it, so we must not lap it (publish would wait for it forever).
   */
  private publish(): void {
    while (this.backlog.length) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined && Atomics.load(this.i32, HEADER.RESERVE) - oldest >= RING_CAPACITY) break;
      const w = this.backlog.shift()!;
      const position = publish(this.i32, this.layout, w.node, w.slot, w.tiles);
      this.pending.set(position, { position, tiles: w.tiles, node: w.node, resolve: w.resolve, reject: w.reject });
    }
  }

  private watch(): void {
    this.completions.arm(this.seenCompletions, this.pending.size + this.backlog.length > 0);
  }

  private collect(): void {
    this.seenCompletions = this.completions.read();
    for (const p of this.pending.values()) {
      const e = this.layout.ringBase / 4 + (p.position % RING_CAPACITY) * ENTRY_WORDS;
      if (Atomics.load(this.i32, e + ENTRY.DONE) !== p.tiles) continue;
      this.pending.delete(p.position);
      const failed = Atomics.load(this.i32, e + ENTRY.FAILED);
      // Collected: the entry is ours to free once read.
      Atomics.store(this.i32, e + ENTRY.STATE, 0);
      if (failed) p.reject(new TaskFailure(`${this.describe(p.node)} failed in worker ${failed - 1}: ${readErrorText(this.i32, this.layout, failed - 1)}`));
      else p.resolve();
    }
  }

  /** Tells the workers to leave their loop; tasks not finished are rejected. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.i32, HEADER.SHUTDOWN, 1);
    Atomics.notify(this.i32, HEADER.TAIL);
    // Wake our own waitAsync so that nothing stays pending after the close.
    Atomics.add(this.i32, HEADER.COMPLETIONS, 1);
    Atomics.notify(this.i32, HEADER.COMPLETIONS);
    const error = new FlowinferError('the worker pool was shut down before the task finished');
    for (const p of this.pending.values()) p.reject(error);
    for (const w of this.backlog) w.reject(error);
    this.pending.clear();
    this.backlog.length = 0;
    this.watch();
  }
}
