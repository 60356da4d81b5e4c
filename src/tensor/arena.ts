// The arena: one shared WebAssembly.Memory that the kernels, every worker and the main thread see. Above
// the kernel ABI's reserved region it holds, bump-allocated once per engine:
//
//   RESERVED_BYTES ─ task ring ─ packed weights and parameter blocks ─ slot 0 ─ slot 1 ─ ... ─ slot k-1
//
// Each slot is one frame's activations, laid out by the liveness plan (graph/plan.ts).
// The memory grows while the engine is built and never after its workers start.

import { PAGE_BYTES, RESERVED_BYTES } from '../kernels/abi.ts';
import type { SharedMemory } from '../kernels/wasm.ts';

export class Arena {
  private top = RESERVED_BYTES;

  constructor(readonly memory: SharedMemory) {}

  /** Bytes allocated above the reserved region. */
  get used(): number {
    return this.top - RESERVED_BYTES;
  }

  get buffer(): SharedArrayBuffer {
    return this.memory.buffer;
  }

  /** A new region of `bytes`, aligned (default 64: a cache line, and v128 friendly); returns its byte offset. */
  alloc(bytes: number, alignment = 64): number {
    const offset = Math.ceil(this.top / alignment) * alignment;
    this.top = offset + Math.max(0, Math.ceil(bytes));
    const needed = Math.ceil(this.top / PAGE_BYTES);
    const have = this.memory.buffer.byteLength / PAGE_BYTES;
    if (needed > have) this.memory.grow(needed - have);
    return offset;
  }

  f32(offset: number, count: number): Float32Array {
    return new Float32Array(this.memory.buffer, offset, count);
  }

  i32(offset: number, count: number): Int32Array {
    return new Int32Array(this.memory.buffer, offset, count);
  }

  /** Allocates and fills a float region. */
  store(values: ArrayLike<number>, alignment = 64): number {
    const offset = this.alloc(values.length * 4, alignment);
    this.f32(offset, values.length).set(values);
    return offset;
  }
}

/** A fixed set of arena slots for frames in flight: acquire one per frame, release it when done. */
export class SlotPool {
  private readonly free: number[];
  private readonly waiters: Array<(slot: number) => void> = [];

  constructor(readonly count: number) {
    this.free = Array.from({ length: count }, (_, i) => count - 1 - i);
  }

  get available(): number {
    return this.free.length;
  }

  /** A free slot, or undefined when all are busy. */
  acquire(): number | undefined {
    return this.free.pop();
  }

  /** A free slot, waiting (in arrival order) for one to be released if all are busy. */
  take(): Promise<number> {
    const slot = this.free.pop();
    return slot !== undefined ? Promise.resolve(slot) : new Promise((resolve) => this.waiters.push(resolve));
  }

  release(slot: number): void {
    if (slot < 0 || slot >= this.count || this.free.includes(slot)) throw new Error(`slot ${slot} released twice or never acquired`);
    const waiter = this.waiters.shift();
    if (waiter) waiter(slot);
    else this.free.push(slot);
  }
}
