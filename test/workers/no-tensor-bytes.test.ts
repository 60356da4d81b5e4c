// Messages to workers carry only descriptors: one serve task per thread when the engine starts (the
// shared memory, the compiled module, offsets, shapes and kernel names) and nothing per frame; no
// ArrayBuffer or typed array ever crosses to a worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Piscina } from 'piscina';
import { loadModel } from '../../src/runtime/load.ts';
import { mobilenetV2 } from '../../src/zoo/index.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

/** Paths to every ArrayBuffer / SharedArrayBuffer / typed array inside a message (the memory object aside). */
function bytesIn(value: unknown, path = 'task', seen = new Set<unknown>()): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return [path];
  if (path === 'task.memory' || path === 'task.module') return [];
  return Object.entries(value).flatMap(([k, v]) => bytesIn(v, `${path}.${k}`, seen));
}

test('workers receive one serve task each, holding no tensor bytes, and nothing per frame', async () => {
  const posted: unknown[] = [];
  const original = Piscina.prototype.run;
  Piscina.prototype.run = function (this: Piscina, task: unknown, ...rest: unknown[]) {
    posted.push(task);
    return (original as (...a: unknown[]) => Promise<unknown>).call(this, task, ...rest);
  } as typeof original;
  try {
    const model = await loadModel(mobilenetV2({ size: 32 }), { engine: 'fast', threads: 2 });
    for (let i = 0; i < 5; i++) await model.run(Tensor.zeros([1, 3, 32, 32]));
    await model.dispose();
  } finally {
    Piscina.prototype.run = original;
  }
  assert.equal(posted.length, 2, 'one serve task per worker thread, none per frame');
  for (const task of posted) {
    assert.equal((task as { kind: string }).kind, 'serve');
    assert.deepEqual(bytesIn(task), []);
    // The shared memory is shared, not copied: its buffer is a SharedArrayBuffer.
    assert.ok((task as { memory: { buffer: unknown } }).memory.buffer instanceof SharedArrayBuffer);
    // A fallback step would carry weights by offset into the arena, never as data.
    assert.ok(JSON.stringify((task as { program: unknown }).program).length < 2_000_000);
  }
});
