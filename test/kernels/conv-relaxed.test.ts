// The convolution suites again on the relaxed-SIMD build (see relaxed-child.ts).
import { relaxedSuites } from './relaxed-child.ts';

relaxedSuites('convolution suites', ['test/kernels/conv.test.ts', 'test/kernels/conv-threads.test.ts', 'test/kernels/conv-transpose.test.ts'], /relaxed build: the dw path/);
