// The NHWC pooling kernels against the op references (src/ops/pool.ts, adaptive-pool.ts) on random shapes:
// odd sizes, C not a multiple of 4, batch 3, pixel strides > C, ceil_mode overhang, padding, dilation,
// stride > kernel, count_include_pad on and off, divisor_override; NaN and infinities for max pooling;
// every call split into random ranges. Max pooling is exact; averages are held to the float32 rounding of
// the window sum (relative to the mean of |x|).
import { test } from 'node:test';
import fc from 'fast-check';
import { POOL_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { POOL_KERNELS, poolUnits, writePoolParams, type PoolCall } from '../../src/kernels/pool.ts';
import { poolOutputSize } from '../../src/ops/pool-params.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { bind } from '../ops/support.ts';
import { batch, channels, extent, guardDamage, mismatch, pad, placeNhwc, readNhwc, reserve, runSplit, seeded } from './eltwise-support.ts';
import { testVariants, TestArena } from './helpers.ts';

const EPS = 2 ** -24;

interface Case {
  readonly type: string;
  readonly params: Record<string, string>;
  readonly call: PoolCall;
  readonly shape: [number, number, number, number];
  readonly out: [number, number];
  readonly xPad: number;
  readonly yPad: number;
  readonly seed: number;
  readonly specials: boolean;
  /** Relative rounding allowance of an average, per unit of mean |x|. */
  readonly sumTerms: number;
}

function runCase(arena: TestArena, k: Case, label: string): string | undefined {
  arena.reset();
  const [n, c, h, w] = k.shape;
  const [oh, ow] = k.out;
  const x = seeded(k.shape, k.seed, 4, k.specials);
  const op = bind(k.type, { params: k.params });
  const want = op.reference([x])[0]!;
  const isAvg = k.call.kind.includes('avg');
  const magnitude = isAvg ? op.reference([new Tensor('f32', k.shape, x.f32.map(Math.abs))])[0]!.f32 : undefined;
  const xs = c + k.xPad;
  const ys = c + k.yPad;
  const px = placeNhwc(arena, x, xs, k.seed & 3);
  const py = reserve(arena, n * oh * ow, c, ys, (k.seed >> 2) & 3);
  const params = arena.alloc(POOL_PARAMS_BYTES);
  const images = { at: px.at, pixelStride: xs, n, c, h, w };
  writePoolParams(arena.kernels.memory, params, k.call, images, { at: py.at, pixelStride: ys, oh, ow });
  runSplit(arena, POOL_KERNELS[k.call.kind], params, poolUnits(k.call.kind, images, oh), k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  const got = readNhwc(arena, py, [n, c, oh, ow]);
  const tolerance = (i: number) => (magnitude ? (k.sumTerms + 2) * 2 * EPS * Math.abs(magnitude[i]!) : 0);
  return mismatch(got.f32, want.f32, want.shape, tolerance, `${label} ${k.type} ${JSON.stringify(k.params)} x=(${k.shape}) xs=${xs} ys=${ys}`);
}

const window = fc.record({
  kh: fc.integer({ min: 1, max: 5 }),
  kw: fc.integer({ min: 1, max: 5 }),
  sh: fc.integer({ min: 1, max: 4 }),
  sw: fc.integer({ min: 1, max: 4 }),
  dh: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 3 })),
  dw: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 3 })),
  padFraction: fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
  ceil: fc.boolean(),
  countIncludePad: fc.boolean(),
  divisor: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(1, 2, 7, -3) }),
});

const common = fc.record({ n: batch, c: channels, h: extent, w: extent, xPad: pad, yPad: pad, seed: fc.integer() });

const tuple = (a: number, b: number) => `(${a},${b})`;

/** Max or average pooling cases (invalid combinations, e.g. an empty output, are filtered out). */
function windowCases(kind: 'max' | 'avg'): fc.Arbitrary<Case> {
  return fc.tuple(common, window, fc.boolean()).map(([s, wnd, specials]) => {
    const ph = Math.floor(wnd.padFraction[0] * Math.floor(wnd.kh / 2) + 0.5);
    const pw = Math.floor(wnd.padFraction[1] * Math.floor(wnd.kw / 2) + 0.5);
    const dh = kind === 'max' ? wnd.dh : 1;
    const dw = kind === 'max' ? wnd.dw : 1;
    const oh = poolOutputSize(s.h, wnd.kh, wnd.sh, ph, dh, wnd.ceil);
    const ow = poolOutputSize(s.w, wnd.kw, wnd.sw, pw, dw, wnd.ceil);
    const params: Record<string, string> = {
      kernel_size: tuple(wnd.kh, wnd.kw), stride: tuple(wnd.sh, wnd.sw), padding: tuple(ph, pw), ceil_mode: wnd.ceil ? 'True' : 'False',
    };
    if (kind === 'max') params.dilation = tuple(dh, dw);
    else {
      params.count_include_pad = wnd.countIncludePad ? 'True' : 'False';
      if (wnd.divisor !== 0) params.divisor_override = String(wnd.divisor);
    }
    const call: PoolCall = {
      kind, kernel: [wnd.kh, wnd.kw], stride: [wnd.sh, wnd.sw], padding: [ph, pw], dilation: [dh, dw],
      countIncludePad: wnd.countIncludePad, divisorOverride: wnd.divisor === 0 ? undefined : wnd.divisor,
    };
    return {
      type: kind === 'max' ? 'nn.MaxPool2d' : 'nn.AvgPool2d', params, call, shape: [s.n, s.c, s.h, s.w] as [number, number, number, number],
      out: [oh, ow] as [number, number], xPad: s.xPad, yPad: s.yPad, seed: s.seed, specials: kind === 'max' && specials,
      // An override divisor smaller than the window scales the sum's error up by cells / divisor.
      sumTerms: (wnd.kh + wnd.kw) * (wnd.divisor === 0 ? 1 : (wnd.kh * wnd.kw) / Math.abs(wnd.divisor)),
    };
  }).filter((k) => k.out[0] >= 1 && k.out[1] >= 1);
}

function adaptiveCases(kind: 'max' | 'avg'): fc.Arbitrary<Case> {
  return fc.tuple(common, fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.boolean()).map(([s, oh, ow, specials]) => ({
    type: kind === 'max' ? 'nn.AdaptiveMaxPool2d' : 'nn.AdaptiveAvgPool2d',
    params: { output_size: tuple(oh, ow) },
    call: { kind: kind === 'max' ? 'adaptive-max' : 'adaptive-avg' } as PoolCall,
    shape: [s.n, s.c, s.h, s.w] as [number, number, number, number],
    out: [oh, ow] as [number, number],
    xPad: s.xPad, yPad: s.yPad, seed: s.seed, specials: kind === 'max' && specials,
    sumTerms: Math.ceil(s.h / oh) + Math.ceil(s.w / ow) + 2,
  }));
}

const globalCases: fc.Arbitrary<Case> = fc.tuple(common, fc.constantFrom(1, 7, 14, 56, 57)).map(([s, hw]) => {
  const h = s.seed % 2 === 0 ? hw : s.h;
  const w = s.seed % 3 === 0 ? hw : s.w;
  return {
    type: 'F.adaptive_avg_pool2d', params: { output_size: '(1,1)' }, call: { kind: 'global-avg' } as PoolCall,
    shape: [s.n, s.c, h, w] as [number, number, number, number], out: [1, 1] as [number, number],
    xPad: s.xPad, yPad: s.yPad, seed: s.seed, specials: false, sumTerms: h + w,
  };
});

for (const variant of testVariants()) {
  const suites: Array<[string, fc.Arbitrary<Case>, number]> = [
    ['max pool (exact, NaN wins, padding never wins)', windowCases('max'), 150],
    ['average pool (ceil_mode, count_include_pad, divisor_override)', windowCases('avg'), 150],
    ['adaptive max pool (exact)', adaptiveCases('max'), 80],
    ['adaptive average pool', adaptiveCases('avg'), 80],
    ['global average pool', globalCases, 60],
  ];
  for (const [name, cases, numRuns] of suites) {
    test(`${variant} build: ${name} matches the reference on random NHWC shapes and splits`, () => {
      const arena = new TestArena(variant, 256);
      fc.assert(
        fc.property(cases, (k) => {
          const failure = runCase(arena, k, variant);
          if (failure !== undefined) throw new Error(failure);
        }),
        { numRuns },
      );
    });
  }

  test(`${variant} build: SPPF-sized max pool 5x5/1 pad 2 on 20x20x256, batch 3, exact`, () => {
    const arena = new TestArena(variant, 256);
    const k: Case = {
      type: 'nn.MaxPool2d', params: { kernel_size: '(5,5)', stride: '(1,1)', padding: '(2,2)' },
      call: { kind: 'max', kernel: [5, 5], stride: [1, 1], padding: [2, 2] },
      shape: [3, 256, 20, 20], out: [20, 20], xPad: 0, yPad: 0, seed: 5, specials: true, sumTerms: 0,
    };
    const failure = runCase(arena, k, variant);
    if (failure !== undefined) throw new Error(failure);
  });
}
