// Timing for a noisy 2-core VM (10-35 % run-to-run noise measured here: other VMs share the host). The
// cases being compared (a kernel and its ceiling, 1 and 2 threads) run in interleaved rounds, so each
// ratio compares figures taken under the same conditions. Each case is warmed up first until V8 has
// tiered it up from Liftoff to TurboFan (tier-up applies to the next call: no on-stack replacement).
const WARMUP_MS = 300;
const ROUND_MS = 15;

export interface Case {
  readonly run: () => void;
  /** FLOP of one run. */
  readonly flop: number;
}

export interface Rate {
  /** GFLOP/s of the fastest round (the least disturbed). */
  readonly best: number;
  readonly median: number;
}

export function measure(cases: readonly Case[], rounds: number): Rate[] {
  const reps = cases.map(({ run }) => {
    let calls = 0;
    const start = performance.now();
    while (calls < 3 || performance.now() - start < WARMUP_MS) {
      run();
      calls++;
    }
    return Math.max(1, Math.ceil(ROUND_MS / ((performance.now() - start) / calls)));
  });
  const rates: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach(({ run, flop }, i) => {
      const start = performance.now();
      for (let j = 0; j < reps[i]!; j++) run();
      rates[i]!.push((flop * reps[i]!) / ((performance.now() - start) * 1e6));
    });
  }
  return rates.map((list) => {
    list.sort((x, y) => x - y);
    return { best: list[list.length - 1]!, median: list[Math.floor(list.length / 2)]! };
  });
}
