// The README's streaming example, through the public API (src/index.ts) as a user imports it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interval, lastValueFrom, map, take, toArray } from 'rxjs';
import { loadModel, mobilenetV2, Tensor, type StreamResult } from '../src/index.ts';

test('README: an Observable of frames through model.stream, metadata carried, results in order', async () => {
  const model = await loadModel(mobilenetV2({ size: 64 }), { threads: 2 });
  try {
    const pixels = (i: number) => new Float32Array(3 * 64 * 64).fill(i / 10);
    const frames$ = interval(5).pipe(take(6), map((i) => ({ input: Tensor.f32([1, 3, 64, 64], pixels(i)), meta: { i } })));
    const results: Array<StreamResult<{ i: number }>> = await lastValueFrom(model.stream(frames$, { maxInFlight: 3 }).pipe(toArray()));
    assert.deepEqual(results.map((r) => r.meta?.i), [0, 1, 2, 3, 4, 5]);
    for (const r of results) {
      assert.ok(!r.error);
      assert.deepEqual(r.outputs.pnnx_output_0!.shape, [1, 1000]);
      assert.ok(r.latencyMs > 0);
    }
    // Different frames, different outputs: the stream did not hand one frame's result to another.
    assert.notDeepEqual([...results[0]!.outputs!.pnnx_output_0!.f32.slice(0, 8)], [...results[5]!.outputs!.pnnx_output_0!.f32.slice(0, 8)]);
  } finally {
    await model.dispose();
  }
});
