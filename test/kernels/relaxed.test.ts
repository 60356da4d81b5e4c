// The GEMM, exp and 2-worker suites again on the relaxed-SIMD build (see relaxed-child.ts).
import { relaxedSuites } from './relaxed-child.ts';

relaxedSuites('GEMM, exp and 2-worker suites', ['test/kernels/gemm.test.ts', 'test/kernels/exp.test.ts', 'test/kernels/threads.test.ts'], /relaxed build: GEMM \+ silu/);
