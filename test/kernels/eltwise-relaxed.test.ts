// The pooling, elementwise, resize, softmax and copy suites again on the relaxed-SIMD build (relaxed_madd
// turns the affine, bilinear and exp polynomials into FMAs; see relaxed-child.ts).
import { relaxedSuites } from './relaxed-child.ts';

relaxedSuites('pooling, elementwise, resize, softmax and copy suites', ['pool', 'eltwise', 'resize', 'softmax', 'copy'].map((s) => `test/kernels/${s}.test.ts`), /relaxed build: average pool/);
