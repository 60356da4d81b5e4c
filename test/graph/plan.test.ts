import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planMemory, type BufferRequest } from '../../src/graph/plan.ts';

test('buffers with disjoint lifetimes share memory; overlapping ones do not', () => {
  const plan = planMemory([
    { id: 0, bytes: 100, start: 0, end: 1 },
    { id: 1, bytes: 100, start: 1, end: 2 },
    { id: 2, bytes: 100, start: 2, end: 3 },
  ], 64);
  // 0 and 2 never live together: a chain needs two buffers, not three.
  assert.equal(plan.bytes, 256);
  assert.equal(plan.unplannedBytes, 384);
  assert.equal(plan.offsets.get(0), plan.offsets.get(2));
  assert.notEqual(plan.offsets.get(0), plan.offsets.get(1));
});

test('random lifetimes: no two live buffers overlap in memory, and the plan never exceeds the sum', () => {
  const request = fc.record({ bytes: fc.integer({ min: 1, max: 5000 }), start: fc.integer({ min: 0, max: 30 }), len: fc.integer({ min: 0, max: 10 }) });
  fc.assert(fc.property(fc.array(request, { minLength: 1, maxLength: 60 }), (rs) => {
    const reqs: BufferRequest[] = rs.map((r, id) => ({ id, bytes: r.bytes, start: r.start, end: r.start + r.len }));
    const plan = planMemory(reqs, 16);
    for (const a of reqs) {
      const oa = plan.offsets.get(a.id)!;
      assert.equal(oa % 16, 0);
      assert.ok(oa + a.bytes <= plan.bytes);
      for (const b of reqs) {
        if (a.id >= b.id || a.start > b.end || b.start > a.end) continue;
        const ob = plan.offsets.get(b.id)!;
        assert.ok(oa + a.bytes <= ob || ob + b.bytes <= oa, `buffers ${a.id} and ${b.id} overlap while both live`);
      }
    }
    assert.ok(plan.bytes <= plan.unplannedBytes);
  }), { numRuns: 300, seed: 42 });
});
