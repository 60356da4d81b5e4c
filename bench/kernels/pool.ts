// The benchmark's worker threads: each instantiates the kernels on the shared memory and waits on the
// command block; run() wakes them all and blocks the main thread (Atomics.wait, no spinning: with two
// cores a spinning main thread would steal one) until every worker has reported.
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import type { SharedMemory, WasmModule } from '../../src/kernels/wasm.ts';
import { CMD_EXIT, CTL_ARG, CTL_DONE, CTL_KIND, CTL_SEQ, CTL_WORDS } from './control.mjs';

export class BenchPool {
  private readonly ctl: Int32Array;

  private constructor(
    private readonly workers: Worker[],
    memory: SharedMemory,
    control: number,
  ) {
    this.ctl = new Int32Array(memory.buffer, control, CTL_WORDS);
  }

  /** `threads` workers on `memory`; `control` is a 64-byte block of the memory for commands. */
  static async start(memory: SharedMemory, module: WasmModule, control: number, threads: number): Promise<BenchPool> {
    new Int32Array(memory.buffer, control, CTL_WORDS).fill(0);
    const workers = Array.from(
      { length: threads },
      () => new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { memory, module, control } }),
    );
    await Promise.all(workers.map((worker) => once(worker, 'message')));
    return new BenchPool(workers, memory, control);
  }

  /** Runs one command on every worker and returns when all are done. */
  run(kind: number, arg: number): void {
    const ctl = this.ctl;
    Atomics.store(ctl, CTL_DONE, 0);
    Atomics.store(ctl, CTL_KIND, kind);
    Atomics.store(ctl, CTL_ARG, arg);
    Atomics.add(ctl, CTL_SEQ, 1);
    Atomics.notify(ctl, CTL_SEQ);
    for (let done = Atomics.load(ctl, CTL_DONE); done < this.workers.length; done = Atomics.load(ctl, CTL_DONE)) {
      Atomics.wait(ctl, CTL_DONE, done);
    }
  }

  async close(): Promise<void> {
    const exits = this.workers.map((worker) => once(worker, 'exit'));
    Atomics.store(this.ctl, CTL_KIND, CMD_EXIT);
    Atomics.add(this.ctl, CTL_SEQ, 1);
    Atomics.notify(this.ctl, CTL_SEQ);
    await Promise.all(exits);
  }
}
