// The stream operator's semantics with a controllable runner: order, metadata, drop policies, errors,
// cancellation, pulled sources and batching. (The real engine is exercised in stream-engine.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Subject, firstValueFrom, lastValueFrom, toArray, range, map } from 'rxjs';
import { streamFrames, type FrameOutcome, type FrameRunner } from '../../src/stream/stream.ts';
import type { StreamResult } from '../../src/stream/types.ts';
import type { ModelInputs } from '../../src/runtime/io.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

/** A runner whose frames finish when the test says so (or after a delay); output = input + 1. */
function manualRunner(delay?: (value: number) => number) {
  const running: Array<{ value: number; finish(): void; fail(e: Error): void; cancelled: boolean }> = [];
  let maxRunning = 0;
  let active = 0;
  const runner: FrameRunner = {
    run(input: ModelInputs) {
      const t = input as Tensor;
      const value = t.f32[0]!;
      active++;
      maxRunning = Math.max(maxRunning, active);
      let entry!: (typeof running)[number];
      const done = new Promise<FrameOutcome>((resolve, reject) => {
        entry = {
          value,
          cancelled: false,
          finish: () => { active--; resolve({ outputs: { out: Tensor.f32(t.shape, Array.from(t.f32, (x) => x + 1)) }, nodeMs: [] }); },
          fail: (e) => { active--; reject(e); },
        };
        running.push(entry);
        if (delay) setTimeout(entry.finish, delay(value));
      });
      return { done, cancel: () => { entry.cancelled = true; entry.fail(new Error('cancelled')); } };
    },
  };
  return { runner, running, get maxRunning() { return maxRunning; } };
}

const frame = (v: number) => ({ input: Tensor.f32([1, 2], [v, v]), meta: { n: v } });
const values = (rs: StreamResult<{ n: number }>[]) => rs.map((r) => (r.outputs ? r.outputs.out!.f32[0]! : NaN));

test('results come out in input order under random per-frame delays, carrying metadata', async () => {
  const delays = [9, 1, 5, 0, 7, 3, 8, 2, 6, 4, 1, 9, 0, 5];
  const { runner, maxRunning } = manualRunner((v) => delays[v % delays.length]!);
  const results = await lastValueFrom(streamFrames(runner, range(0, 40).pipe(map(frame)), { maxInFlight: 4 }).pipe(toArray()));
  assert.deepEqual(results.map((r) => r.index), [...Array(40).keys()]);
  assert.deepEqual(results.map((r) => r.meta!.n), [...Array(40).keys()]);
  assert.deepEqual(values(results), [...Array(40).keys()].map((v) => v + 1));
  assert.ok(maxRunning <= 4);
});

test('ordered: false emits as frames finish', async () => {
  const { runner } = manualRunner((v) => (v === 0 ? 30 : 1));
  const results = await lastValueFrom(streamFrames(runner, range(0, 3).pipe(map(frame)), { maxInFlight: 3, ordered: false }).pipe(toArray()));
  assert.deepEqual(results.map((r) => r.index), [1, 2, 0]);
});

test('drop-newest drops frames arriving while all slots are busy, and counts them', async () => {
  const m = manualRunner();
  const source = new Subject<ReturnType<typeof frame>>();
  const all = lastValueFrom(streamFrames(m.runner, source, { maxInFlight: 2, policy: 'drop-newest' }).pipe(toArray()));
  for (let v = 0; v < 6; v++) source.next(frame(v)); // 0 and 1 run; 2..5 are dropped
  m.running[0]!.finish();
  await new Promise((r) => setImmediate(r));
  source.next(frame(6)); // a slot is free again
  source.complete();
  m.running[1]!.finish();
  await new Promise((r) => setImmediate(r));
  m.running[2]!.finish();
  const results = await all;
  assert.deepEqual(results.map((r) => r.index), [0, 1, 6]);
  assert.equal(results[2]!.dropped, 4);
});

test('drop-oldest keeps the newest waiting frame', async () => {
  const m = manualRunner();
  const source = new Subject<ReturnType<typeof frame>>();
  const all = lastValueFrom(streamFrames(m.runner, source, { maxInFlight: 1, policy: 'drop-oldest' }).pipe(toArray()));
  for (let v = 0; v < 5; v++) source.next(frame(v)); // 0 runs; 1, 2, 3 are replaced in turn by 4
  source.complete();
  m.running[0]!.finish();
  await new Promise((r) => setImmediate(r));
  m.running[1]!.finish();
  const results = await all;
  assert.deepEqual(results.map((r) => r.index), [0, 4]);
  assert.equal(results[1]!.dropped, 3);
});

test('block: a pushed source that outruns the queue is a clear error, not unbounded memory', async () => {
  const m = manualRunner();
  const source = new Subject<ReturnType<typeof frame>>();
  const all = lastValueFrom(streamFrames(m.runner, source, { maxInFlight: 1, maxQueue: 3 }));
  for (let v = 0; v < 5; v++) source.next(frame(v));
  await assert.rejects(all, /pushed frame 4 while all 1 slots were busy and 3 frames were queued: an Observable cannot be paused/);
  assert.ok(m.running[0]!.cancelled, 'the running frame was cancelled');
});

test('a failing frame errors the stream naming the frame; with onError: emit it becomes an error result', async () => {
  const failing: FrameRunner = {
    run(input) {
      const v = (input as Tensor).f32[0]!;
      const done = v === 2 ? Promise.reject(new Error('nn.Conv2d "c" failed in worker 1: boom')) : Promise.resolve({ outputs: { out: input as Tensor }, nodeMs: [] });
      return { done, cancel: () => undefined };
    },
  };
  await assert.rejects(lastValueFrom(streamFrames(failing, range(0, 5).pipe(map(frame)))), /frame 2 \(\{"n":2\}\): nn\.Conv2d "c" failed in worker 1: boom/);
  const results = await lastValueFrom(streamFrames(failing, range(0, 5).pipe(map(frame)), { onError: 'emit' }).pipe(toArray()));
  assert.deepEqual(results.map((r) => (r.error ? 'error' : 'ok')), ['ok', 'ok', 'error', 'ok', 'ok']);
  assert.match(results[2]!.error!.message, /boom/);
});

test('unsubscribing cancels the frames in flight and stops a pulled source', async () => {
  const m = manualRunner();
  let pulled = 0;
  let returned = false;
  async function* source() {
    try {
      for (let v = 0; ; v++) {
        pulled++;
        yield frame(v);
      }
    } finally {
      returned = true;
    }
  }
  const first = firstValueFrom(streamFrames(m.runner, source(), { maxInFlight: 3 }));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(m.running.length, 3, 'a pulled source is read only while slots are free');
  assert.ok(pulled <= 4, `pulled ${pulled} frames for 3 slots`);
  m.running[0]!.finish(); // the first result: firstValueFrom unsubscribes
  await first;
  await new Promise((r) => setTimeout(r, 10));
  assert.ok(m.running[1]!.cancelled && m.running[2]!.cancelled);
  assert.ok(returned, 'the generator was closed');
});

test('batching gathers frames (padding a short last batch) and splits the results back', async () => {
  const seen: number[][] = [];
  const runner: FrameRunner = {
    run(input) {
      const t = input as unknown as Tensor[];
      seen.push([...t[0]!.shape]);
      return { done: Promise.resolve({ outputs: { out: Tensor.f32(t[0]!.shape, t[0]!.f32.map((x) => x * 10)) }, nodeMs: [] }), cancel: () => undefined };
    },
  };
  const frames = range(0, 10).pipe(map((v) => ({ input: [Tensor.f32([1, 2], [v, -v])], meta: v })));
  const results = await lastValueFrom(streamFrames(runner, frames, { batch: 4, maxWaitMs: 5 }).pipe(toArray()));
  assert.deepEqual(seen, [[4, 2], [4, 2], [4, 2]]);
  assert.deepEqual(results.map((r) => [r.meta, [...r.outputs!.out!.shape], ...r.outputs!.out!.f32]), [...Array(10).keys()].map((v) => [v, [1, 2], v * 10, -v * 10]));
});

test('a Node object-mode stream is a pulled source: read only while slots are free', async () => {
  const { Readable } = await import('node:stream');
  const m = manualRunner((v) => v);
  let read = 0;
  const source = Readable.from((function* () {
    for (let v = 0; v < 20; v++) {
      read++;
      yield frame(v);
    }
  })(), { highWaterMark: 1 });
  const results = await lastValueFrom(streamFrames(m.runner, source, { maxInFlight: 2 }).pipe(toArray()));
  assert.deepEqual(results.map((r) => r.index), [...Array(20).keys()]);
  assert.equal(read, 20);
  assert.ok(m.maxRunning <= 2);
});

test('a failing pulled source: the frames it gave still come out, then the stream errors', async () => {
  const m = manualRunner(() => 5);
  async function* source() {
    for (let v = 0; v < 4; v++) yield frame(v);
    throw new Error('the decoder died');
  }
  const seen: number[] = [];
  await assert.rejects(new Promise((resolve, reject) => {
    streamFrames(m.runner, source(), { maxInFlight: 2 }).subscribe({ next: (r) => seen.push(r.index), error: reject, complete: () => resolve(undefined) });
  }), /the decoder died/);
  assert.deepEqual(seen, [0, 1, 2, 3]);
});
