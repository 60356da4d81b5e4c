import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowinferError } from '../../src/errors.ts';
import { GEMM_NR } from '../../src/kernels/abi.ts';
import { packGemmWeights, packedGemmFloats } from '../../src/kernels/pack.ts';

/** W[n, k] = 1000 n + k + 1, so every packed float names where it came from. */
function tagged(n: number, k: number): Float32Array {
  return Float32Array.from({ length: n * k }, (_, i) => 1000 * Math.floor(i / k) + (i % k) + 1);
}

test('panels hold 8 bias floats then K rows of 8 channel weights, zero-padded past N', () => {
  for (const [n, k] of [[1, 1], [3, 5], [8, 4], [9, 3], [17, 2], [16, 7]] as const) {
    const bias = Float32Array.from({ length: n }, (_, j) => -(j + 1));
    const dst = new Float32Array(packedGemmFloats(n, k));
    packGemmWeights(dst, tagged(n, k), bias, n, k);
    const panels = Math.ceil(n / GEMM_NR);
    assert.equal(dst.length, panels * (k + 1) * GEMM_NR);
    for (let p = 0; p < panels; p++) {
      const panel = p * (k + 1) * GEMM_NR;
      for (let j = 0; j < GEMM_NR; j++) {
        const ch = p * GEMM_NR + j;
        assert.equal(dst[panel + j], ch < n ? -(ch + 1) : 0, `N=${n} K=${k} bias of channel ${ch}`);
        for (let kk = 0; kk < k; kk++) {
          const want = ch < n ? 1000 * ch + kk + 1 : 0;
          assert.equal(dst[panel + GEMM_NR * (kk + 1) + j], want, `N=${n} K=${k} W[${ch}, ${kk}]`);
        }
      }
    }
  }
});

test('no bias packs zeros; panels are 32-byte multiples so each stays 16-byte aligned', () => {
  const dst = new Float32Array(packedGemmFloats(12, 3)).fill(7);
  packGemmWeights(dst, tagged(12, 3), undefined, 12, 3);
  for (const panel of [0, 4 * GEMM_NR]) assert.deepEqual([...dst.subarray(panel, panel + GEMM_NR)], new Array(8).fill(0));
  for (const k of [1, 2, 3, 5, 576]) assert.equal(((k + 1) * GEMM_NR * 4) % 16, 0);
});

test('packing rejects wrong sizes and misaligned destinations, naming the numbers', () => {
  const w = tagged(4, 4);
  assert.throws(() => packGemmWeights(new Float32Array(packedGemmFloats(4, 4)), w.subarray(1), undefined, 4, 4), /15 floats, expected N\*K = 4\*4 = 16/);
  assert.throws(() => packGemmWeights(new Float32Array(packedGemmFloats(4, 4)), w, new Float32Array(3), 4, 4), /bias holds 3 floats, expected N = 4/);
  assert.throws(() => packGemmWeights(new Float32Array(10), w, undefined, 4, 4), FlowinferError);
  const misaligned = new Float32Array(new ArrayBuffer(4 + packedGemmFloats(4, 4) * 4), 4);
  assert.throws(() => packGemmWeights(misaligned, w, undefined, 4, 4), /16-byte aligned/);
});
