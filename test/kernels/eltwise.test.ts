// The elementwise row kernels against the op references: every standalone activation (src/ops/activation.ts,
// with NaN and infinities), the channel affine of an unfused BatchNorm (src/ops/batchnorm.ts), and the
// broadcasting binary ops of a pnnx.Expression (src/ops/expression.ts) through the lowering's planner,
// on NHWC tensors with pixel strides > C and plain tensors, every call split into random ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BIN_PARAMS_BYTES, ROW_PARAMS_BYTES } from '../../src/kernels/abi.ts';
import { writeAffineParams, writeBinaryParams, writeUnaryParams, type BinaryOp, type UnaryOp } from '../../src/kernels/eltwise.ts';
import { batchNormAffine } from '../../src/ops/batchnorm.ts';
import { planBinary, type Operand } from '../../src/ops/fast/eltwise-binary.ts';
import type { TensorView } from '../../src/runtime/fast/views.ts';
import { broadcastShapes, numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { bind, makeNode } from '../ops/support.ts';
import { batch, channels, extent, guardDamage, mismatch, pad, placeNhwc, placeRows, readNhwc, readRows, reserve, runSplit, seeded, type Placed } from './eltwise-support.ts';
import { prng, testVariants, TestArena } from './helpers.ts';

const EPS = 2 ** -24;

/**
 * Activation types, params, kernel op, relative tolerance (float32 roundings it may add) and absolute
 * tolerance: the exp-based ones flush e^x to 0 below ln(FLT_MIN) (exp.ts), so results under ~1e-35 (SiLU
 * at x < -87.3) may come out as 0.
 */
const UNARY: Array<{ type: string; params: Record<string, string>; op: UnaryOp; alpha: number; rel: number; abs?: number }> = [
  { type: 'nn.ReLU', params: {}, op: 'relu', alpha: 0, rel: 0 },
  { type: 'nn.ReLU6', params: {}, op: 'relu6', alpha: 0, rel: 0 },
  { type: 'nn.LeakyReLU', params: { negative_slope: '0.1' }, op: 'leaky_relu', alpha: 0.1, rel: 2 * EPS },
  { type: 'nn.Hardsigmoid', params: {}, op: 'hardsigmoid', alpha: 0, rel: 4 * EPS },
  { type: 'nn.Hardswish', params: {}, op: 'hardswish', alpha: 0, rel: 6 * EPS },
  { type: 'nn.Sigmoid', params: {}, op: 'sigmoid', alpha: 0, rel: 1e-6, abs: 1e-35 },
  { type: 'nn.SiLU', params: {}, op: 'silu', alpha: 0, rel: 1e-6, abs: 1e-35 },
  { type: 'nn.Tanh', params: {}, op: 'tanh', alpha: 0, rel: 1e-6, abs: 1e-35 },
  { type: 'nn.ELU', params: { alpha: '0.7' }, op: 'elu', alpha: 0.7, rel: 1e-6, abs: 1e-35 },
];

/** A view of a placed tensor (offset = absolute byte address, for the planner). */
const viewOf = (p: Placed, shape: Shape): TensorView => ({ offset: p.at, shape, layout: shape.length === 4 ? 'nhwc' : 'plain', pixelStride: shape.length === 4 ? p.stride : 1 });

function place(arena: TestArena, t: Tensor, extra: number, shift: number): Placed {
  if (t.rank === 4) return placeNhwc(arena, t, t.shape[1]! + extra, shift);
  const cols = t.rank === 0 ? 1 : t.shape[t.rank - 1]!;
  return placeRows(arena, t.f32, cols, cols, shift);
}

function reserveLike(arena: TestArena, shape: Shape, extra: number, shift: number): Placed {
  if (shape.length === 4) return reserve(arena, shape[0]! * shape[2]! * shape[3]!, shape[1]!, shape[1]! + extra, shift);
  const cols = shape.length === 0 ? 1 : shape[shape.length - 1]!;
  return reserve(arena, numel(shape) / cols, cols, cols, shift);
}

const read = (arena: TestArena, p: Placed, shape: Shape) => (shape.length === 4 ? readNhwc(arena, p, shape).f32 : readRows(arena, p));

// ---- unary ------------------------------------------------------------------------------------------

interface UnaryCase {
  readonly which: number;
  readonly shape: Shape;
  readonly xPad: number;
  readonly yPad: number;
  readonly seed: number;
  readonly scale: number;
}

function runUnary(arena: TestArena, k: UnaryCase, label: string, data?: Tensor): string | undefined {
  arena.reset();
  const u = UNARY[k.which]!;
  const x = data ?? seeded(k.shape, k.seed, k.scale, true);
  const want = bind(u.type, { params: u.params }).reference([x])[0]!;
  const px = place(arena, x, k.xPad, k.seed & 3);
  const py = reserveLike(arena, k.shape, k.yPad, (k.seed >> 2) & 3);
  const xv = viewOf(px, k.shape);
  const yv = viewOf(py, k.shape);
  // The lowering's choice: one span when dense, pixel rows otherwise.
  const dense = (k.shape.length !== 4 || (k.xPad === 0 && k.yPad === 0));
  const rows = dense ? numel(k.shape) : k.shape[0]! * k.shape[2]! * k.shape[3]!;
  const c = dense ? 1 : k.shape[1]!;
  const params = arena.alloc(ROW_PARAMS_BYTES);
  writeUnaryParams(arena.kernels.memory, params, {
    x: { at: px.at, stride: dense ? 1 : xv.pixelStride }, y: { at: py.at, stride: dense ? 1 : yv.pixelStride }, rows, c, op: u.op, alpha: u.alpha,
  });
  runSplit(arena, 'f32_unary_rows', params, rows, k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  return mismatch(read(arena, py, k.shape), want.f32, k.shape, (_i, w) => u.rel * Math.abs(w) + (u.abs ?? 0), `${label} ${u.type} (${k.shape}) xPad=${k.xPad} yPad=${k.yPad}`);
}

const shapes = fc.oneof(
  fc.tuple(batch, channels, extent, extent).map((s): Shape => s),
  fc.array(fc.integer({ min: 1, max: 37 }), { minLength: 1, maxLength: 3 }).map((s): Shape => s),
);

// ---- affine (BatchNorm) ---------------------------------------------------------------------------------

function runAffine(arena: TestArena, shape: Shape, xPad: number, yPad: number, seed: number, label: string): string | undefined {
  arena.reset();
  const c = shape[1]!;
  const random = prng(seed ^ 0x5eed);
  const w = (lo: number, hi: number) => Tensor.f32([c], Float32Array.from({ length: c }, () => lo + (hi - lo) * random()));
  const weights = { running_mean: w(-2, 2), running_var: w(0.1, 3), weight: w(-2, 2), bias: w(-1, 1) };
  const params = { num_features: String(c), eps: '1e-5', affine: 'True' };
  const x = seeded(shape, seed, 3);
  const want = bind('nn.BatchNorm2d', { params, weights }).reference([x])[0]!;
  const { scale, shift } = batchNormAffine(makeNode('nn.BatchNorm2d', { params, weights }));
  const table = arena.alloc(2 * c * 4);
  arena.floats(table, c).set(scale);
  arena.floats(table + 4 * c, c).set(shift);
  const px = place(arena, x, xPad, seed & 3);
  const py = reserveLike(arena, shape, yPad, (seed >> 2) & 3);
  const rows = shape.length === 4 ? shape[0]! * shape[2]! * shape[3]! : shape[0]!;
  const block = arena.alloc(ROW_PARAMS_BYTES);
  writeAffineParams(arena.kernels.memory, block, {
    x: { at: px.at, stride: shape.length === 4 ? c + xPad : c }, y: { at: py.at, stride: shape.length === 4 ? c + yPad : c }, rows, c, scale: table, shift: table + 4 * c,
  });
  runSplit(arena, 'f32_affine_rows', block, rows, seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  // Relative to the terms summed: |x * s| + |mean * s| + |bias|.
  const inner = numel(shape.slice(2));
  const channel = (i: number) => Math.floor(i / inner) % c;
  const magnitude = (i: number) => {
    const ch = channel(i);
    const s = Math.abs(weights.weight.f32[ch]! / Math.sqrt(weights.running_var.f32[ch]! + 1e-5));
    return Math.abs(x.f32[i]!) * s + Math.abs(weights.running_mean.f32[ch]!) * s + Math.abs(weights.bias.f32[ch]!);
  };
  return mismatch(read(arena, py, shape), want.f32, shape, (i) => 4 * EPS * magnitude(i), `${label} BatchNorm (${shape}) xPad=${xPad} yPad=${yPad}`);
}

// ---- binary -----------------------------------------------------------------------------------------

type Pattern = 'same' | 'channel' | 'channel-per-sample' | 'sample' | 'scalar' | 'constant' | 'row';

interface BinaryCase {
  readonly fn: 'add' | 'sub' | 'mul' | 'div' | 'maximum' | 'minimum';
  readonly pattern: Pattern;
  /** The broadcast operand comes first (the kernel then runs the reversed op). */
  readonly swap: boolean;
  readonly out: Shape;
  readonly pads: readonly [number, number, number];
  readonly seed: number;
}

const KERNEL_OP: Record<BinaryCase['fn'], BinaryOp> = { add: 'add', sub: 'sub', mul: 'mul', div: 'div', maximum: 'max', minimum: 'min' };

/** The broadcast operand's shape for a pattern (rank 4 for NHWC outputs, plain otherwise). */
function otherShape(pattern: Pattern, out: Shape): Shape {
  const [n, c] = out as [number, number];
  switch (pattern) {
    case 'same': return out;
    case 'channel': return n % 2 === 0 ? [c, 1, 1] : [1, c, 1, 1];
    case 'channel-per-sample': return [n, c, 1, 1];
    case 'sample': return [1, ...out.slice(1)];
    case 'scalar': return out.length === 4 && n % 2 === 1 ? [1, 1, 1, 1] : [1];
    case 'row': return out.length > 1 && n % 2 === 0 ? [1, out[out.length - 1]!] : [out[out.length - 1]!];
    default: return [];
  }
}

function runBinary(arena: TestArena, k: BinaryCase, label: string): string | undefined {
  arena.reset();
  const full = seeded(k.out, k.seed, 3, true);
  const constant = Math.fround((prng(k.seed)() - 0.5) * 7);
  const other = k.pattern === 'constant' ? undefined : seeded(otherShape(k.pattern, k.out), k.seed + 1, 3, true);
  if (other && k.fn === 'div') other.f32.forEach((v, i, a) => { if (Math.abs(v) < 0.05) a[i] = 0.5; });
  const constantText = Number.isInteger(constant) ? `${constant}.0` : String(constant);
  const args = k.pattern === 'constant' ? ['@0', constantText] : ['@0', '@1'];
  const expr = `${k.fn}(${(k.swap ? [...args].reverse() : args).join(',')})`;
  const tensors = other ? [full, other] : [full];
  const want = bind('pnnx.Expression', { params: { expr }, inputs: tensors.length }).reference(tensors)[0]!;
  assert.deepEqual([...want.shape], [...(other ? broadcastShapes([full.shape, other.shape])! : full.shape)]);
  const pFull = place(arena, full, k.pads[0], k.seed & 3);
  const pOther = other ? place(arena, other, k.pads[1], (k.seed >> 2) & 3) : undefined;
  const py = reserveLike(arena, k.out, k.pads[2], (k.seed >> 4) & 3);
  const fullOperand: Operand = { view: viewOf(pFull, full.shape), at: pFull.at };
  const otherOperand: Operand = other ? { view: viewOf(pOther!, other.shape), at: pOther!.at } : { constant };
  const [first, second] = k.swap ? [otherOperand, fullOperand] : [fullOperand, otherOperand];
  const call = planBinary(KERNEL_OP[k.fn], first, second, viewOf(py, k.out), py.at);
  if (!call) return `${label}: ${expr} on (${k.out}) with (${other?.shape ?? 'constant'}): no kernel plan`;
  const block = arena.alloc(BIN_PARAMS_BYTES);
  writeBinaryParams(arena.kernels.memory, block, call);
  runSplit(arena, 'f32_binary_rows', block, call.rows, k.seed);
  const damage = guardDamage(arena, py);
  if (damage) return `${label}: ${damage}`;
  // add, sub, mul, div, max, min of two float32 values round once, exactly as the reference does.
  return mismatch(read(arena, py, k.out), want.f32, k.out, () => 0, `${label} ${expr} (${k.out}) with (${other?.shape ?? constant}) pads=${k.pads}`);
}

const binaryCases: fc.Arbitrary<BinaryCase> = fc.record({
  fn: fc.constantFrom<BinaryCase['fn']>('add', 'sub', 'mul', 'div', 'maximum', 'minimum'),
  nhwc: fc.boolean(),
  pattern: fc.constantFrom<Pattern>('same', 'channel', 'channel-per-sample', 'sample', 'scalar', 'constant', 'row'),
  swap: fc.boolean(),
  n: batch,
  c: channels,
  h: extent,
  w: extent,
  plain: fc.array(fc.integer({ min: 1, max: 37 }), { minLength: 1, maxLength: 3 }),
  pads: fc.tuple(pad, pad, pad),
  seed: fc.integer(),
}).map((r): BinaryCase => {
  const nhwcPattern = r.pattern !== 'row';
  const plainPattern = r.pattern === 'same' || r.pattern === 'scalar' || r.pattern === 'constant' || r.pattern === 'row';
  const nhwc = nhwcPattern && (r.nhwc || !plainPattern);
  const out: Shape = nhwc ? [r.n, r.c, r.h, r.w] : r.plain;
  return { fn: r.fn, pattern: r.pattern, swap: r.swap && r.pattern !== 'same', out, pads: nhwc ? r.pads : [0, 0, 0], seed: r.seed };
});

for (const variant of testVariants()) {
  test(`${variant} build: every unary activation matches the reference (NaN, infinities, strides, splits)`, () => {
    const arena = new TestArena(variant, 128);
    const cases = fc.record({ which: fc.integer({ min: 0, max: UNARY.length - 1 }), shape: shapes, xPad: pad, yPad: pad, seed: fc.integer(), scale: fc.constantFrom(1, 4, 30) });
    fc.assert(fc.property(cases, (k) => {
      const failure = runUnary(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 300 });
  });

  test(`${variant} build: activations over the whole float32 range, near 0 and at the saturation points`, () => {
    const arena = new TestArena(variant, 64);
    const edges = [0, -0, 1e-30, -1e-30, 1e-7, -1e-7, 1e-4, -1e-4, 0.3465, -0.3466, 0.625, -0.6251, 3, -3, -2.9999998, 6, 8.5, -8.5, 15, -15, 80, -80, 87.4, -87.4, 88.7, -88.8, 100, -100, 3e38, -3e38];
    const x = Tensor.f32([edges.length], edges);
    for (const which of UNARY.keys()) {
      const failure = runUnary(arena, { which, shape: x.shape, xPad: 0, yPad: 0, seed: 1, scale: 1 }, `${variant} edges`, x);
      assert.equal(failure, undefined, failure);
    }
  });

  test(`${variant} build: BatchNorm channel affine matches the reference (NHWC with strides, and (N,C))`, () => {
    const arena = new TestArena(variant, 128);
    const cases = fc.record({ nhwc: fc.boolean(), n: batch, c: channels, h: extent, w: extent, xPad: pad, yPad: pad, seed: fc.integer() });
    fc.assert(fc.property(cases, (k) => {
      const shape: Shape = k.nhwc ? [k.n, k.c, k.h, k.w] : [k.n * k.h, k.c];
      const failure = runAffine(arena, shape, k.nhwc ? k.xPad : 0, k.nhwc ? k.yPad : 0, k.seed, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 150 });
  });

  test(`${variant} build: binary ops with every broadcast pattern match the expression reference exactly`, () => {
    const arena = new TestArena(variant, 128);
    fc.assert(fc.property(binaryCases, (k) => {
      const failure = runBinary(arena, k, variant);
      if (failure !== undefined) throw new Error(failure);
    }), { numRuns: 400 });
  });
}
