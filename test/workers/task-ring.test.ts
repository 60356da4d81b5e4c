import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { TaskRing, TaskFailure } from '../../src/workers/task-ring.ts';
import { RING_CAPACITY, ringBytes, type RingLayout } from '../../src/workers/protocol.ts';
import { RESERVED_BYTES } from '../../src/kernels/abi.ts';

async function withRing(body: (ring: TaskRing, counts: Int32Array) => Promise<void>) {
  const workers = 2;
  const layout: RingLayout = { ringBase: RESERVED_BYTES, errorBase: RESERVED_BYTES + ringBytes(0), workers, timingBase: 0, slots: 0, steps: 0, frameBase: 0, remainingBase: 0 };
  const countsBase = RESERVED_BYTES + ringBytes(workers);
  const buffer = new SharedArrayBuffer(countsBase + 4 * 1000 * 8);
  const i32 = new Int32Array(buffer);
  const ring = new TaskRing(i32, layout, (n) => `node ${n}`);
  const threads = Array.from({ length: workers }, (_, worker) =>
    new Worker(new URL('../../src/workers/ts-entry.mjs', import.meta.url), {
      workerData: { entry: new URL('./fixtures/ring-worker.ts', import.meta.url).href, buffer, layout, worker, countsBase },
    }));
  const exited = threads.map((t) => new Promise((resolve) => t.once('exit', resolve)));
  try {
    await body(ring, new Int32Array(buffer, countsBase, 1000 * 8));
  } finally {
    ring.close();
    await Promise.all(exited);
  }
}

test('every tile of every task runs exactly once, across ring wrap-around', async () => {
  await withRing(async (ring, counts) => {
    const tasks: Promise<void>[] = [];
    // 3 laps of the ring, tasks on 4 slots with 1..37 tiles.
    for (let i = 0; i < RING_CAPACITY * 3; i++) tasks.push(ring.submit(0, i % 4, 1 + (i % 37)));
    await Promise.all(tasks);
    let expected = 0;
    for (let slot = 0; slot < 4; slot++) {
      for (let tile = 0; tile < 37; tile++) {
        const runs = [...Array(RING_CAPACITY * 3).keys()].filter((i) => i % 4 === slot && tile < 1 + (i % 37)).length;
        expected += runs;
        assert.equal(counts[slot * 1000 + tile], runs, `slot ${slot} tile ${tile}`);
      }
    }
    assert.ok(expected > 3000);
    assert.equal(ring.inFlight, 0);
  });
});

test('a throwing tile rejects its task with the node and the message; other tasks are unaffected', async () => {
  await withRing(async (ring, counts) => {
    const good = ring.submit(2, 1, 20);
    const bad = ring.submit(1, 0, 8);
    await assert.rejects(bad, (e: unknown) => e instanceof TaskFailure && /node 1 failed in worker \d: RangeError: tile 3 is bad/.test(e.message));
    await good;
    assert.deepEqual([...counts.subarray(1000, 1020)], new Array(20).fill(1));
  });
});

test('close rejects what is still queued', async () => {
  await withRing(async (ring) => {
    const slow = Array.from({ length: 50 }, () => ring.submit(2, 0, 50));
    ring.close();
    const settled = await Promise.allSettled(slow);
    assert.ok(settled.some((s) => s.status === 'rejected'));
    await assert.rejects(ring.submit(0, 0, 1), /shut down/);
  });
});
