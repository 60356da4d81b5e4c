// Shared by the kernel tests: which builds to test, a bump allocator over a kernel memory, a seeded
// PRNG, and the double-precision oracle of the fused GEMM.
import { RESERVED_BYTES } from '../../src/kernels/abi.ts';
import type { Activation } from '../../src/kernels/activation.ts';
import { createKernelMemory, loadKernels, relaxedSimdSupported, type Kernels, type SimdVariant } from '../../src/kernels/module.ts';

/**
 * Builds to test in this process: FLOWINFER_TEST_SIMD=plain,relaxed when set (relaxed.test.ts sets it for
 * its child), otherwise plain plus relaxed when this runtime validates relaxed SIMD.
 */
export function testVariants(): SimdVariant[] {
  const env = process.env.FLOWINFER_TEST_SIMD;
  if (env) return env.split(',') as SimdVariant[];
  return relaxedSimdSupported() ? ['plain', 'relaxed'] : ['plain'];
}

/** A kernel instance on its own small memory, with a bump allocator over the arena. */
export class TestArena {
  readonly kernels: Kernels;
  private top = RESERVED_BYTES;

  constructor(variant: SimdVariant, pages = 128) {
    this.kernels = loadKernels(createKernelMemory({ initialPages: pages }), { simd: variant });
  }

  get buffer(): SharedArrayBuffer {
    return this.kernels.memory.buffer;
  }

  /** `bytes` at a 64-byte aligned offset. */
  alloc(bytes: number): number {
    const at = this.top;
    this.top += Math.ceil(bytes / 64) * 64;
    if (this.top > this.buffer.byteLength) throw new Error(`test arena: ${this.top} bytes do not fit`);
    return at;
  }

  floats(at: number, count: number): Float32Array {
    return new Float32Array(this.buffer, at, count);
  }

  reset(): void {
    this.top = RESERVED_BYTES;
  }
}

/** mulberry32: a small seeded PRNG, so a fast-check case regenerates its data from one integer. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The activation in double precision, and a bound on its slope (error amplification). */
export function activationReference(name: Activation, alpha: number): { f: (x: number) => number; slope: number } {
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  switch (name) {
    case 'none':
      return { f: (x) => x, slope: 1 };
    case 'relu':
      return { f: (x) => Math.max(x, 0), slope: 1 };
    case 'relu6':
      return { f: (x) => Math.min(Math.max(x, 0), 6), slope: 1 };
    case 'silu':
      return { f: (x) => x * sigmoid(x), slope: 1.1 };
    case 'hardswish':
      return { f: (x) => (x * Math.min(Math.max(x + 3, 0), 6)) / 6, slope: 1.5 };
    case 'sigmoid':
      return { f: sigmoid, slope: 0.25 };
    case 'leaky_relu':
      return { f: (x) => (x >= 0 ? x : alpha * x), slope: Math.max(1, Math.abs(alpha)) };
    case 'hardsigmoid':
      return { f: (x) => Math.min(Math.max(x + 3, 0), 6) / 6, slope: 1 / 6 };
  }
}

export interface GemmCase {
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly lda: number;
  readonly ldc: number;
  readonly activation: Activation;
  readonly alpha: number;
  readonly bias: Float32Array | undefined;
  readonly a: Float32Array; // m x lda
  readonly w: Float32Array; // n x k
}

/**
 * Checks `got` (m x ldc floats) against the fused GEMM computed in double precision. The tolerance is
 * relative to the magnitude of the summed terms, s = |bias| + sum_k |a w| (a float32 dot product of K
 * terms is off by up to ~K * 6e-8 * s, however small the result), times the activation's slope, plus
 * 2e-6 relative for the exp approximation. Returns the first mismatch as a message, or undefined.
 */
export function checkGemm(c: GemmCase, got: Float32Array, label: string): string | undefined {
  const { f, slope } = activationReference(c.activation, c.alpha);
  for (let i = 0; i < c.m; i++) {
    for (let j = 0; j < c.n; j++) {
      let sum = c.bias ? c.bias[j]! : 0;
      let magnitude = Math.abs(sum);
      for (let kk = 0; kk < c.k; kk++) {
        const term = c.a[i * c.lda + kk]! * c.w[j * c.k + kk]!;
        sum += term;
        magnitude += Math.abs(term);
      }
      const expected = f(sum);
      const value = got[i * c.ldc + j]!;
      const tolerance = 1e-5 * slope * magnitude + 2e-6 * Math.abs(expected) + 1e-30;
      if (!(Math.abs(value - expected) <= tolerance)) {
        return (
          `${label}: C[${i}, ${j}] expected ${expected}, got ${value} (|diff| ${Math.abs(value - expected)} > ${tolerance}); ` +
          `M=${c.m} N=${c.n} K=${c.k} lda=${c.lda} ldc=${c.ldc} activation=${c.activation} alpha=${c.alpha} bias=${c.bias !== undefined}`
        );
      }
    }
  }
  return undefined;
}
