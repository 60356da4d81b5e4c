// The convolution kernels (IGEMM, row-tap IGEMM, depthwise, 1x1 GEMM) through their lowering, against
// conv2dReference on random shapes: odd sizes, 1x1 to 7x7, 6x6 stride 2, strides 2-3, dilation 2-3,
// groups (depthwise and grouped), batch up to 3, channel counts off multiples of 4, every padding mode,
// every activation code, residual on and off, pixel strides larger than C, tiles in any order. Each
// build this process can run (conv-relaxed.test.ts covers the relaxed build on Node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ACTIVATIONS, type Activation } from '../../src/kernels/activation.ts';
import type { PaddingMode } from '../../src/ops/conv-params.ts';
import { convPaths, type ConvPath } from '../../src/ops/fast/conv.ts';
import { parseConvParams } from '../../src/ops/conv-params.ts';
import { convNode, ConvRig, runConvCase, validSpec, type ConvSpec, type TileOrder } from './conv-harness.ts';
import { testVariants } from './helpers.ts';

const activation = fc.constantFrom(...(Object.keys(ACTIVATIONS) as Activation[]));
const mode = fc.oneof({ weight: 3, arbitrary: fc.constant<PaddingMode>('zeros') }, { weight: 2, arbitrary: fc.constantFrom<PaddingMode>('reflect', 'replicate', 'circular') });
const pair = (a: fc.Arbitrary<number>) => fc.tuple(a, a);
const padding = fc.oneof(
  { weight: 5, arbitrary: pair(fc.integer({ min: 0, max: 3 })) },
  { weight: 1, arbitrary: fc.constantFrom<'same' | 'valid'>('same', 'valid') },
);

interface Shape {
  readonly cin: number;
  readonly cout: number;
  readonly groups: number;
  readonly kernel: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly dilation: readonly [number, number];
  readonly padding: ConvSpec['padding'];
}

/** Dense, grouped, depthwise, pointwise and RGB-stem convolutions. */
const shapes: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    cin: fc.integer({ min: 1, max: 13 }), cout: fc.integer({ min: 1, max: 21 }), groups: fc.constant(1),
    kernel: pair(fc.integer({ min: 1, max: 7 })), stride: pair(fc.integer({ min: 1, max: 3 })),
    dilation: pair(fc.constantFrom(1, 1, 2, 3)), padding,
  }),
  fc.record({ g: fc.integer({ min: 2, max: 4 }), ci: fc.integer({ min: 1, max: 5 }), co: fc.integer({ min: 1, max: 11 }),
    kernel: pair(fc.integer({ min: 1, max: 4 })), stride: pair(fc.integer({ min: 1, max: 2 })), dilation: pair(fc.constantFrom(1, 2)), padding,
  }).map(({ g, ci, co, ...rest }) => ({ cin: g * ci, cout: g * co, groups: g, ...rest })),
  fc.record({ c: fc.integer({ min: 1, max: 21 }), kernel: fc.oneof(fc.constantFrom<[number, number]>([3, 3], [5, 5]), pair(fc.integer({ min: 1, max: 5 }))),
    stride: fc.oneof(fc.constantFrom<[number, number]>([1, 1], [2, 2]), pair(fc.integer({ min: 1, max: 3 }))), dilation: pair(fc.constantFrom(1, 1, 2, 3)), padding,
  }).map(({ c, ...rest }) => ({ cin: c, cout: c, groups: c, ...rest })),
  fc.record({ cin: fc.integer({ min: 1, max: 19 }), cout: fc.integer({ min: 1, max: 19 }) })
    .map(({ cin, cout }) => ({ cin, cout, groups: 1, kernel: [1, 1] as const, stride: [1, 1] as const, dilation: [1, 1] as const, padding: [0, 0] as const })),
  fc.record({ cout: fc.integer({ min: 1, max: 17 }), stem: fc.constantFrom(
    { kernel: [7, 7] as const, stride: [2, 2] as const, padding: [3, 3] as const },
    { kernel: [6, 6] as const, stride: [2, 2] as const, padding: [2, 2] as const },
    { kernel: [3, 3] as const, stride: [2, 2] as const, padding: [1, 1] as const },
  ) }).map(({ cout, stem }) => ({ cin: 3, cout, groups: 1, dilation: [1, 1] as const, ...stem })),
);

const specs = (pathPick: (paths: ConvPath[], i: number) => ConvPath | undefined): fc.Arbitrary<ConvSpec> =>
  fc.record({
    shape: shapes,
    batch: fc.constantFrom(1, 1, 2, 3),
    h: fc.integer({ min: 1, max: 17 }),
    w: fc.integer({ min: 1, max: 23 }),
    mode,
    activation,
    alpha: fc.constantFrom(0.01, 0.1, -0.5, 2),
    bias: fc.boolean(),
    residual: fc.boolean(),
    extra: fc.tuple(fc.constantFrom(0, 0, 1, 3, 5), fc.constantFrom(0, 0, 2, 4), fc.constantFrom(0, 0, 1, 7)),
    pathIndex: fc.nat(),
    threads: fc.constantFrom(1, 2),
    order: fc.constantFrom<TileOrder>('forward', 'reverse', 'shuffled', 'pieces'),
    seed: fc.integer(),
  }).map(({ shape, pathIndex, ...rest }) => {
    const s: ConvSpec = { ...shape, ...rest, path: undefined };
    return validSpec(s) ? { ...s, path: pathPick(convPaths(parseConvParams(convNode(s), false)), pathIndex) } : s;
  }).filter(validSpec);

for (const variant of testVariants()) {
  test(`${variant} build: convolutions on every applicable path match conv2dReference`, () => {
    const rig = new ConvRig(variant);
    fc.assert(
      fc.property(specs((paths, i) => paths[i % paths.length]), (s) => {
        const failure = runConvCase(rig, s);
        if (failure !== undefined) throw new Error(failure);
      }),
      { numRuns: 300 },
    );
  });

  for (const path of ['igemm', 'rowtaps', 'dw'] as const) {
    test(`${variant} build: the ${path} path on random shapes it applies to`, () => {
      const rig = new ConvRig(variant);
      fc.assert(
        fc.property(specs((paths) => (paths.includes(path) ? path : undefined)).filter((s) => s.path === path), (s) => {
          const failure = runConvCase(rig, s);
          if (failure !== undefined) throw new Error(failure);
        }),
        { numRuns: 120 },
      );
    });
  }

  test(`${variant} build: every activation, with and without residual, on every path`, () => {
    const rig = new ConvRig(variant);
    let seed = 11;
    const base = { batch: 2, h: 9, w: 11, mode: 'zeros' as const, alpha: 0.1, bias: true, extra: [1, 2, 3] as const, threads: 2, order: 'shuffled' as const };
    const cases: Array<[ConvPath, Shape]> = [
      ['gemm', { cin: 13, cout: 19, groups: 1, kernel: [1, 1], stride: [1, 1], dilation: [1, 1], padding: [0, 0] }],
      ['igemm', { cin: 6, cout: 12, groups: 2, kernel: [3, 3], stride: [2, 1], dilation: [1, 2], padding: [1, 2] }],
      ['rowtaps', { cin: 3, cout: 10, groups: 1, kernel: [6, 6], stride: [2, 2], dilation: [1, 1], padding: [2, 2] }],
      ['dw', { cin: 21, cout: 21, groups: 21, kernel: [5, 5], stride: [1, 1], dilation: [1, 1], padding: [2, 2] }],
    ];
    for (const [path, shape] of cases) {
      for (const act of Object.keys(ACTIVATIONS) as Activation[]) {
        for (const residual of [false, true]) {
          const s: ConvSpec = { ...base, ...shape, activation: act, residual, path, seed: seed++ };
          const failure = runConvCase(rig, s);
          assert.equal(failure, undefined, failure);
        }
      }
    }
  });
}
