// The worker pool: piscina owns the threads' lifecycle and errors; each thread runs one long-lived
// `serve` task that takes its work from the shared-memory task ring (protocol.ts), so that a node
// firing costs a few atomic operations instead of a message round trip (55-90 us measured here).

import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { SimdVariant } from '../kernels/module.ts';
import { packagePath } from '../package-root.ts';
import type { SharedMemory, WasmModule } from '../kernels/wasm.ts';
import type { Program, RingLayout, ServeTask } from './protocol.ts';

export const defaultThreads = () => Math.max(1, availableParallelism());

export class WorkerPool {
  private readonly piscina: Piscina;
  private serving: Promise<unknown>[] = [];

  constructor(readonly threads: number) {
    this.piscina = new Piscina({
      filename: pathToFileURL(packagePath('src', 'workers', 'worker-entry.mjs')).href,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: 1,
      idleTimeout: Infinity,
      // Workers take the process's WebAssembly flags (--experimental-wasm-relaxed-simd, --no-liftoff); other
      // flags may be main-thread only (--input-type, --expose-gc) and make a worker refuse to start.
      // tsx is registered by worker-entry.mjs itself.
      execArgv: process.execArgv.filter((a) => /^--(no-)?(experimental-)?(wasm|liftoff)/.test(a)),
    });
  }

  /**
   * Starts one serve task per thread. The returned promise settles when they all end (after the ring's
   * SHUTDOWN) and rejects if a worker dies.
   */
  serve(memory: SharedMemory, module: WasmModule, variant: SimdVariant, ring: RingLayout, program: Program): Promise<unknown> {
    this.serving = Array.from({ length: this.threads }, (_, worker) => {
      const task: ServeTask = { kind: 'serve', worker, memory, module, variant, ring, program };
      return this.piscina.run(task);
    });
    return Promise.all(this.serving);
  }

  async destroy(): Promise<void> {
    await Promise.allSettled(this.serving);
    await this.piscina.destroy();
  }
}
