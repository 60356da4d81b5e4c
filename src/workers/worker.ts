// The piscina worker: instantiates the kernel module on the shared memory, builds a runner for every step
// of the program, and serves the task ring until told to stop. Tasks of any other kind are rejected.

import { instantiateKernels } from '../kernels/module.ts';
import type { WorkerTask } from './protocol.ts';
import { makeRunner } from './runners.ts';
import { serveRing } from './serve-loop.ts';

export default function handle(task: WorkerTask): { worker: number } {
  if (task?.kind !== 'serve') throw new Error(`unknown worker task kind ${JSON.stringify((task as { kind?: unknown })?.kind)}`);
  const kernels = instantiateKernels(task.module, task.memory, task.variant);
  const ctx = { kernels: kernels.exports, memory: task.memory, buffer: task.memory.buffer, slotBases: task.program.slotBases };
  const runners = task.program.steps.map((step) => makeRunner(step, ctx));
  serveRing(new Int32Array(task.memory.buffer), task.ring, task.worker, runners, task.program);
  return { worker: task.worker };
}
