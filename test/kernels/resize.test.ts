// The NHWC resize kernels and their index tables against src/ops/upsample.ts: nearest (PyTorch's legacy
// float32 index rule, exact), nearest-exact, bilinear with align_corners on and off; output sizes given,
// or scale factors (non-integer ones used as given, or recomputed); pixel strides > C; random splits.
import { test } from 'node:test';
import fc from 'fast-check';
import { RS_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { resizeKernel, resizeTable, writeResizeParams, type ResizeKernelMode } from '../../src/kernels/resize.ts';
import { bind } from '../ops/support.ts';
import { batch, channels, extent, guardDamage, mismatch, pad, placeNhwc, readNhwc, reserve, runSplit, seeded } from './eltwise-support.ts';
import { testVariants, TestArena } from './helpers.ts';

const EPS = 2 ** -24;

interface Case {
  readonly mode: ResizeKernelMode;
  readonly alignCorners: boolean;
  readonly shape: [number, number, number, number];
  readonly size: [number, number] | undefined;
  readonly scale: [number, number] | undefined;
  readonly recompute: boolean;
  readonly xPad: number;
  readonly yPad: number;
  readonly seed: number;
}

function runCase(arena: TestArena, k: Case, label: string): string | undefined {
  arena.reset();
  const [n, c, h, w] = k.shape;
  const params: Record<string, string> = { mode: k.mode };
  if (k.mode === 'bilinear') params.align_corners = k.alignCorners ? 'True' : 'False';
  if (k.size) params.size = `(${k.size.join(',')})`;
  if (k.scale) params.scale_factor = `(${k.scale.map((s) => s.toExponential(6)).join(',')})`;
  if (k.recompute) params.recompute_scale_factor = 'True';
  const op = bind('nn.Upsample', { params });
  const x = seeded(k.shape, k.seed, 2);
  const want = op.reference([x])[0]!;
  const [, , oh, ow] = want.shape as [number, number, number, number];
  // Scale factors as the node's params read them (the printed text above, parsed back).
  const given = k.scale && !k.recompute ? k.scale.map((s) => Number(s.toExponential(6))) : undefined;
  const tables = ([[h, oh, 0], [w, ow, 1]] as const).map(([inSize, outSize, i]) => {
    const bytes = new Uint8Array(resizeTable({ mode: k.mode, inSize, outSize, alignCorners: k.alignCorners, scaleFactor: given?.[i] }));
    const at = arena.alloc(bytes.length);
    new Uint8Array(arena.buffer, at, bytes.length).set(bytes);
    return at;
  });
  const px = placeNhwc(arena, x, c + k.xPad, k.seed & 3);
  const py = reserve(arena, n * oh * ow, c, c + k.yPad, (k.seed >> 2) & 3);
  const block = arena.alloc(RS_PARAMS_BYTES);
  writeResizeParams(arena.kernels.memory, block, {
    mode: k.mode, x: { at: px.at, pixelStride: c + k.xPad, n, c, h, w }, y: { at: py.at, pixelStride: c + k.yPad, oh, ow }, ytab: tables[0]!, xtab: tables[1]!,
  });
  runSplit(arena, resizeKernel(k.mode), block, n * oh, k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  let scale = 0;
  for (const v of x.f32) scale = Math.max(scale, Math.abs(v));
  // Nearest copies exactly; bilinear rounds a few times on values up to max |x|.
  const tolerance = k.mode === 'bilinear' ? 8 * EPS * scale : 0;
  return mismatch(readNhwc(arena, py, want.shape).f32, want.f32, want.shape, () => tolerance, `${label} ${JSON.stringify(params)} x=(${k.shape}) -> ${oh}x${ow}`);
}

const scaleFactor = fc.oneof(fc.constantFrom(0.5, 1, 1.5, 2, 3, 0.7, 1.3, 2.5, 4), fc.double({ min: 0.3, max: 4.5, noNaN: true }));

const cases: fc.Arbitrary<Case> = fc.record({
  mode: fc.constantFrom<ResizeKernelMode>('nearest', 'nearest', 'nearest-exact', 'bilinear', 'bilinear'),
  alignCorners: fc.boolean(),
  n: batch,
  c: channels,
  h: extent,
  w: extent,
  bySize: fc.boolean(),
  size: fc.tuple(fc.integer({ min: 1, max: 19 }), fc.integer({ min: 1, max: 19 })),
  scale: fc.tuple(scaleFactor, scaleFactor),
  recompute: fc.boolean(),
  xPad: pad,
  yPad: pad,
  seed: fc.integer(),
}).map((r): Case => ({
  mode: r.mode, alignCorners: r.mode === 'bilinear' && r.alignCorners, shape: [r.n, r.c, r.h, r.w],
  size: r.bySize ? r.size : undefined, scale: r.bySize ? undefined : r.scale, recompute: !r.bySize && r.recompute,
  xPad: r.xPad, yPad: r.yPad, seed: r.seed,
})).filter((k) => k.size !== undefined || (Math.floor(k.shape[2] * k.scale![0]) >= 1 && Math.floor(k.shape[3] * k.scale![1]) >= 1));

for (const variant of testVariants()) {
  test(`${variant} build: nearest and bilinear resize match the reference on random sizes, scales and strides`, () => {
    const arena = new TestArena(variant, 128);
    fc.assert(fc.property(cases, (k) => {
      const failure = runCase(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 400 });
  });

  test(`${variant} build: YOLOv5 upsample (nearest x2) of 3x256x20x20 is an exact copy`, () => {
    const arena = new TestArena(variant, 128);
    const failure = runCase(arena, {
      mode: 'nearest', alignCorners: false, shape: [3, 256, 20, 20], size: undefined, scale: [2, 2], recompute: false, xPad: 0, yPad: 0, seed: 3,
    }, variant);
    if (failure !== undefined) throw new Error(failure);
  });
}
