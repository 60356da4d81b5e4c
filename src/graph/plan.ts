// Liveness-based memory plan: every activation buffer gets a byte offset inside one slot, and two buffers
// share bytes only if their lifetimes (first write .. last read, in steps of the execution order) do not
// overlap. Greedy by size, largest first, each at the lowest offset free for its whole lifetime (the
// "greedy by size" planner of TFLite's arena).

export interface BufferRequest {
  readonly id: number;
  readonly bytes: number;
  /** Step that writes it first. */
  readonly start: number;
  /** Last step that reads it (inclusive). A buffer that must survive the run ends at Infinity. */
  readonly end: number;
}

export interface MemoryPlan {
  readonly offsets: ReadonlyMap<number, number>;
  /** Bytes of one slot: the highest offset + size of any buffer. */
  readonly bytes: number;
  /** What a plan without reuse would take: the sum of all buffer sizes. */
  readonly unplannedBytes: number;
}

const overlaps = (a: BufferRequest, b: BufferRequest) => a.start <= b.end && b.start <= a.end;

export function planMemory(requests: readonly BufferRequest[], alignment = 64): MemoryPlan {
  const align = (n: number) => Math.ceil(n / alignment) * alignment;
  const order = [...requests].sort((a, b) => b.bytes - a.bytes || a.start - b.start || a.id - b.id);
  const placed: Array<{ r: BufferRequest; offset: number; size: number }> = [];
  const offsets = new Map<number, number>();
  let bytes = 0;
  for (const r of order) {
    const size = align(r.bytes);
    // Intervals already taken during r's lifetime, by offset.
    const busy = placed.filter((p) => overlaps(p.r, r)).sort((a, b) => a.offset - b.offset);
    let offset = 0;
    for (const p of busy) {
      if (offset + size <= p.offset) break;
      offset = Math.max(offset, p.offset + p.size);
    }
    placed.push({ r, offset, size });
    offsets.set(r.id, offset);
    bytes = Math.max(bytes, offset + size);
  }
  return { offsets, bytes, unplannedBytes: requests.reduce((s, r) => s + align(r.bytes), 0) };
}
