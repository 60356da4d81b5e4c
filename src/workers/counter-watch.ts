// Watching a shared Int32 counter from the main thread without blocking it: Atomics.waitAsync resolves
// when the counter moves past the value last seen. Atomics.waitAsync does not keep Node's event loop
// alive (nor do piscina's threads), so while anything waits an interval timer does: a pending run cannot
// be dropped by an exiting process, and an idle engine does not hold the process.

type WaitAsync = (i32: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string };

export class CounterWatch {
  private watching = false;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly i32: Int32Array,
    private readonly index: number,
    /** Called (from the event loop) each time the counter has moved. */
    private readonly onChange: () => void,
  ) {}

  /** The counter's value now: read it before checking state, pass it to `arm` after. */
  read(): number {
    return Atomics.load(this.i32, this.index);
  }

  /** Waits for the counter to move past `seen` while `busy`; holds the event loop exactly while busy. */
  arm(seen: number, busy: boolean): void {
    if (busy && !this.keepAlive) this.keepAlive = setInterval(() => undefined, 1 << 30);
    if (!busy && this.keepAlive) {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
    if (!busy || this.watching) return;
    this.watching = true;
    const result = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(this.i32, this.index, seen);
    const after = () => {
      this.watching = false;
      this.onChange();
    };
    if (result.async) void (result.value as Promise<string>).then(after);
    else queueMicrotask(after);
  }
}
