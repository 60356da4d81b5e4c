// The TypeScript glue of the GEMM: validation messages and the tile planner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GEMM_MR, GEMM_NR, RESERVED_BYTES } from '../../src/kernels/abi.ts';
import { planGemmTiles, validateGemm, writeGemmParams, type GemmCall } from '../../src/kernels/gemm.ts';
import { createKernelMemory } from '../../src/kernels/module.ts';
import { packedGemmFloats } from '../../src/kernels/pack.ts';

const MB = 1 << 20;
const base: GemmCall = { a: RESERVED_BYTES, lda: 8, w: RESERVED_BYTES + 4096, c: RESERVED_BYTES + 65536, ldc: 8, m: 4, n: 8, k: 8 };

test('validateGemm names the broken field', () => {
  assert.doesNotThrow(() => validateGemm(base, MB));
  assert.throws(() => validateGemm({ ...base, lda: 7 }, MB), /lda must be >= K/);
  assert.throws(() => validateGemm({ ...base, ldc: 7 }, MB), /ldc must be >= N/);
  assert.throws(() => validateGemm({ ...base, w: base.w + 4 }, MB), /16-byte aligned/);
  assert.throws(() => validateGemm({ ...base, a: 1024 }, MB), /arena/);
  assert.throws(() => validateGemm({ ...base, c: MB - 16 }, MB), /past the memory/);
  assert.throws(() => validateGemm({ ...base, m: 0 }, MB), /m must be a positive integer/);
  assert.throws(() => validateGemm({ ...base, c: base.a + 16 }, MB), /C overlaps A/);
  assert.throws(() => validateGemm({ ...base, c: base.w }, MB), /C overlaps A or the weights/);
});

test('C may share rows with A when their columns do not meet (channel slices of one NHWC tensor)', () => {
  // A = channels [0, 8) and C = channels [8, 16) of a tensor with 16 channels per pixel.
  assert.doesNotThrow(() => validateGemm({ ...base, lda: 16, ldc: 16, c: base.a + 8 * 4 }, MB));
  assert.throws(() => validateGemm({ ...base, lda: 16, ldc: 16, c: base.a + 4 * 4 }, MB), /C overlaps A/);
});

test('writeGemmParams refuses tile plans the kernel would loop on', () => {
  const memory = createKernelMemory({ initialPages: 4 });
  const at = RESERVED_BYTES + 3 * 65536 - 256;
  assert.throws(() => writeGemmParams(memory, at, base, { tileM: 4, tileN: 0, count: 0 }), /tileN a positive integer/);
  assert.throws(() => writeGemmParams(memory, at, base, { tileM: 6, tileN: 1, count: 0 }), /positive multiple of 4/);
  assert.throws(() => writeGemmParams(memory, at + 4, base, { tileM: 4, tileN: 1, count: 0 }), /16-byte aligned/);
});

test('tile plans cover the GEMM, keep each weight block within half the L2, and give 2 threads many tiles', () => {
  for (const [m, n, k] of [[1, 1, 1], [49, 512, 4608], [3136, 64, 576], [512, 512, 512], [12544, 16, 32], [5, 1000, 3]]) {
    const panels = Math.ceil(n! / GEMM_NR);
    for (const threads of [1, 2]) {
      const { tileM, tileN, count } = planGemmTiles(m!, n!, k!, threads);
      assert.ok(tileM % GEMM_MR === 0 && tileM >= GEMM_MR && tileN >= 1 && tileN <= panels, `${m}x${n}x${k}`);
      assert.equal(count, Math.ceil(m! / tileM) * Math.ceil(panels / tileN));
      assert.ok(tileN === 1 || tileN * (packedGemmFloats(GEMM_NR, k!) * 4) <= 512 * 1024, `${m}x${n}x${k}: weight block too big`);
      if (threads === 2) assert.ok(count >= Math.min(32, Math.ceil(m! / GEMM_MR) * panels), `${m}x${n}x${k}: ${count} tiles`);
    }
  }
});
