// The packed SGEMM against a double-precision triple loop, on random shapes, strides, activations and
// work splits, for each build this process can run (relaxed.test.ts covers the relaxed build on Node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GEMM_NR, GEMM_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { ACTIVATIONS, type Activation } from '../../src/kernels/activation.ts';
import { writeGemmParams, type GemmTiles } from '../../src/kernels/gemm.ts';
import { packGemmWeights, packedGemmFloats } from '../../src/kernels/pack.ts';
import { checkGemm, prng, testVariants, TestArena, type GemmCase } from './helpers.ts';

type Split = 'whole' | 'blocks' | 'tiles';

interface Spec {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly ldaPad: number;
  readonly ldcPad: number;
  readonly aShift: number; // floats past a 64-byte boundary: A and C need only 4-byte alignment
  readonly cShift: number;
  readonly activation: Activation;
  readonly alpha: number;
  readonly bias: boolean;
  readonly scale: number;
  readonly split: Split;
  readonly seed: number;
}

const GUARD = 37; // floats of sentinel before and after C's rows
const SENTINEL = 0xdeadbeef;

/** Runs one case; returns a failure message or undefined. */
function runCase(arena: TestArena, s: Spec, label: string): string | undefined {
  arena.reset();
  const random = prng(s.seed);
  const uniform = () => (2 * random() - 1) * s.scale;
  const lda = s.k + s.ldaPad;
  const ldc = s.n + s.ldcPad;
  const c: GemmCase = {
    ...s,
    lda,
    ldc,
    a: Float32Array.from({ length: s.m * lda }, uniform),
    w: Float32Array.from({ length: s.n * s.k }, uniform),
    bias: s.bias ? Float32Array.from({ length: s.n }, () => 8 * (2 * random() - 1)) : undefined,
  };
  const a = arena.alloc((s.m * lda + s.aShift) * 4) + s.aShift * 4;
  arena.floats(a, s.m * lda).set(c.a);
  const wFloats = packedGemmFloats(s.n, s.k);
  const w = arena.alloc(wFloats * 4);
  packGemmWeights(arena.floats(w, wFloats), c.w, c.bias, s.n, s.k);
  const packed = arena.floats(w, wFloats).slice();
  const regionFloats = GUARD + s.m * ldc + GUARD;
  const region = arena.alloc((regionFloats + s.cShift) * 4) + s.cShift * 4;
  new Uint32Array(arena.buffer, region, regionFloats).fill(SENTINEL);
  const cAt = region + GUARD * 4;
  const p = arena.alloc(GEMM_PARAMS_BYTES);
  const call = { a, lda, w, c: cAt, ldc, m: s.m, n: s.n, k: s.k, activation: s.activation, alpha: s.alpha };
  const panels = Math.ceil(s.n / GEMM_NR);
  const tiles: GemmTiles = {
    tileM: 4 * (1 + Math.floor(random() * Math.ceil(s.m / 4))),
    tileN: 1 + Math.floor(random() * panels),
    count: 0,
  };
  writeGemmParams(arena.kernels.memory, p, call, tiles);
  const k = arena.kernels.exports;
  if (s.split === 'whole') {
    k.f32_gemm_4x8(p, 0, s.m, 0, panels);
  } else if (s.split === 'blocks') {
    // Random row and panel cuts, rows not necessarily at multiples of 4; blocks run in reverse order.
    const rowCuts = cuts(s.m, random);
    const panelCuts = cuts(panels, random);
    for (let i = rowCuts.length - 2; i >= 0; i--) {
      for (let j = panelCuts.length - 2; j >= 0; j--) k.f32_gemm_4x8(p, rowCuts[i]!, rowCuts[i + 1]!, panelCuts[j]!, panelCuts[j + 1]!);
    }
  } else {
    const count = Math.ceil(s.m / tiles.tileM) * Math.ceil(panels / tiles.tileN);
    const first = k.f32_gemm_4x8_tiles(p);
    const second = k.f32_gemm_4x8_tiles(p); // a second "worker" arriving late finds nothing left
    if (first !== count || second !== 0) return `${label}: tiles ran ${first} + ${second}, expected ${count} + 0 (tileM=${tiles.tileM} tileN=${tiles.tileN})`;
  }
  const words = new Uint32Array(arena.buffer, region, regionFloats);
  for (let i = 0; i < regionFloats; i++) {
    const inC = i >= GUARD && i < GUARD + s.m * ldc && (i - GUARD) % ldc < s.n;
    if (!inC && words[i] !== SENTINEL) {
      return `${label}: wrote outside C at float ${i - GUARD} from C[0, 0] (row ${Math.floor((i - GUARD) / ldc)}, col ${(i - GUARD) % ldc}); M=${s.m} N=${s.n} ldc=${ldc}`;
    }
  }
  if (!arena.floats(a, s.m * lda).every((v, i) => Object.is(v, c.a[i]))) return `${label}: A was modified`;
  if (!arena.floats(w, wFloats).every((v, i) => Object.is(v, packed[i]))) return `${label}: packed weights were modified`;
  return checkGemm(c, arena.floats(cAt, s.m * ldc), label);
}

/** 0 = c0 < c1 < ... < last = size, a few random cut points. */
function cuts(size: number, random: () => number): number[] {
  const points = new Set([0, size]);
  for (let i = 0; i < 3; i++) points.add(Math.floor(random() * size));
  return [...points].sort((x, y) => x - y);
}

const dim = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 70 }) },
  { weight: 3, arbitrary: fc.constantFrom(1, 3, 4, 5, 7, 8, 15, 16, 17) },
  { weight: 1, arbitrary: fc.constantFrom(127, 128, 129) },
);

function specs(activation: Activation): fc.Arbitrary<Spec> {
  return fc.record({
    m: dim,
    n: dim,
    k: dim,
    ldaPad: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
    ldcPad: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9 })),
    aShift: fc.integer({ min: 0, max: 3 }),
    cShift: fc.integer({ min: 0, max: 3 }),
    activation: fc.constant(activation),
    alpha: fc.constantFrom(0.01, 0.1, -0.5, 2),
    bias: fc.boolean(),
    scale: fc.constantFrom(0.25, 1, 3),
    split: fc.constantFrom<Split>('whole', 'blocks', 'tiles'),
    seed: fc.integer(),
  });
}

for (const variant of testVariants()) {
  for (const activation of Object.keys(ACTIVATIONS) as Activation[]) {
    test(`${variant} build: GEMM + ${activation} matches the float64 reference on random shapes and splits`, () => {
      const arena = new TestArena(variant);
      fc.assert(
        fc.property(specs(activation), (s) => {
          const failure = runCase(arena, s, `${variant} ${s.split}`);
          if (failure !== undefined) throw new Error(failure);
        }),
        { numRuns: 40 },
      );
    });
  }

  test(`${variant} build: every M, N, K in {1, 3, 4, 5, 7, 8, 15, 16, 17} and 127..129`, () => {
    const arena = new TestArena(variant);
    const sizes = [1, 3, 4, 5, 7, 8, 15, 16, 17];
    let seed = 1;
    for (const m of [...sizes, 127, 128, 129]) {
      for (const n of [...sizes, 128, 129]) {
        for (const k of [...sizes, 127]) {
          const s: Spec = {
            m, n, k, ldaPad: seed % 3, ldcPad: seed % 5, aShift: seed % 4, cShift: (seed >> 2) % 4,
            activation: 'relu6', alpha: 0, bias: seed % 2 === 0, scale: 1, split: 'whole', seed: seed++,
          };
          const failure = runCase(arena, s, `${variant} M=${m} N=${n} K=${k}`);
          assert.equal(failure, undefined, failure);
        }
      }
    }
  });

  test(`${variant} build: a NaN accumulator gives 0 in ReLU and ReLU6 (bound-first pmax), not NaN`, () => {
    const arena = new TestArena(variant);
    const a = arena.alloc(64);
    arena.floats(a, 4).set([Number.NaN, 1, 1, 1]);
    const w = arena.alloc(packedGemmFloats(8, 4) * 4);
    packGemmWeights(arena.floats(w, packedGemmFloats(8, 4)), new Float32Array(32).fill(1), undefined, 8, 4);
    const c = arena.alloc(64);
    const p = arena.alloc(GEMM_PARAMS_BYTES);
    for (const activation of ['relu', 'relu6'] as const) {
      writeGemmParams(arena.kernels.memory, p, { a, lda: 4, w, c, ldc: 8, m: 1, n: 8, k: 4, activation }, { tileM: 4, tileN: 1, count: 1 });
      arena.kernels.exports.f32_gemm_4x8(p, 0, 1, 0, 1);
      assert.deepEqual([...arena.floats(c, 8)], new Array(8).fill(0), activation);
    }
  });
}
