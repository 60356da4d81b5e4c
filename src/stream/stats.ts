// Latency and throughput figures for a run of frames.

/** The p-th percentile (0..100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** A sliding window of the last `size` samples (for a live p50 without keeping every frame). */
export class Window {
  private readonly values: number[] = [];
  constructor(private readonly size = 200) {}
  push(v: number): void {
    this.values.push(v);
    if (this.values.length > this.size) this.values.shift();
  }
  percentile(p: number): number {
    return percentile(this.values, p);
  }
}
