// nn.ConvTranspose2d through its lowering (src/ops/fast/conv-transpose.ts: weight repacking, indirection,
// per-tap IGEMMs with an output image stride) against convTranspose2dReference on random shapes: odd
// sizes, batch up to 3, kernel 1-4, stride 1-3, padding, output_padding, dilation, groups (grouped and
// depthwise-style), bias or none, every activation code, pixel strides larger than C, tiles in any order,
// on both paths where both apply. Each build this process can run (conv-relaxed.test.ts covers the
// relaxed build on Node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Graph, type Node } from '../../src/graph/graph.ts';
import { P, type Param } from '../../src/graph/param.ts';
import { RESERVED_BYTES } from '../../src/kernels/abi.ts';
import { ACTIVATIONS, type Activation } from '../../src/kernels/activation.ts';
import { planIgemm, validateIgemm } from '../../src/kernels/conv.ts';
import { convTransposeOutputSize, parseConvParams } from '../../src/ops/conv-params.ts';
import { convTranspose2dReference } from '../../src/ops/conv-reference.ts';
import { lowerConvTranspose, transposePaths, type TransposePath } from '../../src/ops/fast/conv-transpose.ts';
import type { BuildContext } from '../../src/runtime/fast/lowering.ts';
import { viewFloats, type TensorView } from '../../src/runtime/fast/views.ts';
import { Arena } from '../../src/tensor/arena.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { ACTIVATION_TYPES, compare, ConvRig, read, runStep, SENTINEL, untouched, write, type TileOrder } from './conv-harness.ts';
import { activationReference, prng, testVariants } from './helpers.ts';

interface Spec {
  readonly batch: number; readonly cin: number; readonly cout: number; readonly groups: number;
  readonly h: number; readonly w: number;
  readonly kernel: readonly [number, number]; readonly stride: readonly [number, number]; readonly dilation: readonly [number, number];
  readonly padding: readonly [number, number]; readonly outputPadding: readonly [number, number];
  readonly activation: Activation; readonly alpha: number; readonly bias: boolean;
  readonly extra: readonly [number, number]; readonly path: TransposePath;
  readonly threads: number; readonly order: TileOrder; readonly seed: number;
}

const describe = (s: Spec) => `N=${s.batch} Cin=${s.cin} Cout=${s.cout} groups=${s.groups} ${s.h}x${s.w} k=(${s.kernel}) s=(${s.stride}) d=(${s.dilation}) ` +
  `pad=(${s.padding}) outpad=(${s.outputPadding}) act=${s.activation} bias=${s.bias} extra=(${s.extra}) path=${s.path} threads=${s.threads} order=${s.order} seed=${s.seed}`;

const outSize = (s: Spec, i: 0 | 1) => convTransposeOutputSize(i === 0 ? s.h : s.w, s.kernel[i], s.stride[i], s.dilation[i], s.padding[i], s.outputPadding[i]);
const valid = (s: Spec) => outSize(s, 0) >= 1 && outSize(s, 1) >= 1 &&
  s.outputPadding.every((op, i) => op < Math.max(s.stride[i]!, s.dilation[i]!));

function transposeNode(s: Spec): Node {
  const g = new Graph('conv-transpose-test');
  const params: Array<[string, Param]> = [
    ['in_channels', P.int(s.cin)], ['out_channels', P.int(s.cout)], ['kernel_size', P.ints(s.kernel)], ['stride', P.ints(s.stride)],
    ['dilation', P.ints(s.dilation)], ['groups', P.int(s.groups)], ['bias', P.bool(s.bias)], ['padding', P.ints(s.padding)],
    ['output_padding', P.ints(s.outputPadding)],
  ];
  const type = ACTIVATION_TYPES[s.activation];
  if (type) params.push(['flowinfer.activation', P.string(type)]);
  if (s.activation === 'leaky_relu') params.push(['flowinfer.activation.negative_slope', P.float(s.alpha)]);
  const random = prng(s.seed ^ 0x7e57);
  const n = s.cout / s.groups;
  const weight = Float32Array.from({ length: s.cin * n * s.kernel[0] * s.kernel[1] }, () => 2 * random() - 1);
  const weights: Array<[string, { dtype: 'f32'; shape: number[]; data: Float32Array }]> = [['weight', { dtype: 'f32', shape: [s.cin, n, ...s.kernel], data: weight }]];
  if (s.bias) weights.push(['bias', { dtype: 'f32', shape: [s.cout], data: Float32Array.from({ length: s.cout }, () => 2 * random() - 1) }]);
  const x = g.value('x');
  const y = g.value('y');
  x.shape = [s.batch, s.cin, s.h, s.w];
  y.shape = [s.batch, s.cout, outSize(s, 0), outSize(s, 1)];
  return g.addNode({ type: 'nn.ConvTranspose2d', name: 'deconv', inputs: [x], outputs: [y], params, weights });
}

/** Lowers, runs every step for 2 slots, and returns the first mismatch (or a write outside the output). */
function runCase(rig: ConvRig, s: Spec): string | undefined {
  const node = transposeNode(s);
  const lowered = lowerConvTranspose(node, undefined, { path: s.path });
  if (!lowered) return `${describe(s)}: not lowered`;
  const random = prng(s.seed);
  const xShape = node.inputs[0]!.shape!;
  const yShape = node.outputs[0]!.shape!;
  let top = 0;
  const place = (shape: readonly number[], extra: number): TensorView => {
    top += Math.floor(random() * 8);
    const v: TensorView = { offset: top * 4, shape, layout: 'nhwc', pixelStride: shape[1]! + extra };
    top += viewFloats(v);
    return v;
  };
  const input = place(xShape, s.extra[0]);
  const output = place(yShape, s.extra[1]);
  const slotFloats = top + 8;
  const arena = new Arena(rig.memory);
  const slotBases = [arena.alloc(slotFloats * 4, 64), arena.alloc(slotFloats * 4 + 64, 64) + 16];
  for (const base of slotBases) new Uint32Array(rig.memory.buffer, base, slotFloats).fill(SENTINEL);
  const ctx: BuildContext = { arena, slotBases, threads: s.threads, view: (v) => (v === node.inputs[0] ? input : output), scratch: () => { throw new Error('no scratch'); } };
  const steps = lowered.build(ctx);
  const xs = slotBases.map((base) => {
    const x = Tensor.f32(xShape, Float32Array.from({ length: xShape.reduce((a, b) => a * b, 1) }, () => 2 * random() - 1));
    write(rig.memory, base, input, x);
    return x;
  });
  const before = slotBases.map((base) => new Uint32Array(rig.memory.buffer.slice(base, base + slotFloats * 4)));
  for (let slot = 1; slot >= 0; slot--) for (const step of steps) runStep(rig.kernels, step, slot, s.order, random);
  const c = parseConvParams(node, true);
  const weight = node.weights.get('weight')!.data as Float32Array;
  const bias = s.bias ? (node.weights.get('bias')!.data as Float32Array) : undefined;
  const { f, slope } = activationReference(s.activation, s.alpha);
  for (let slot = 0; slot < 2; slot++) {
    const label = `${rig.variant} slot ${slot}: ${describe(s)}`;
    const y = convTranspose2dReference(c, xs[slot]!, weight, bias).f32;
    const pre = y.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const want = y.map(f);
    const scale = Math.max(want.reduce((m, v) => Math.max(m, Math.abs(v)), 0), slope * pre, 1e-30);
    const failure = untouched(rig.memory, slotBases[slot]!, before[slot]!, [input], output, label) ??
      compare(read(rig.memory, slotBases[slot]!, output), { y: want, scale, shape: yShape }, label);
    if (failure) return failure;
  }
  return undefined;
}

const pair = (a: fc.Arbitrary<number>) => fc.tuple(a, a);
/** Dense, grouped and depthwise-style (groups = Cin, multiplier 1-2) channel layouts. */
const channels = fc.oneof(
  fc.record({ cin: fc.integer({ min: 1, max: 13 }), cout: fc.integer({ min: 1, max: 19 }), groups: fc.constant(1) }),
  fc.record({ g: fc.integer({ min: 2, max: 3 }), ci: fc.integer({ min: 1, max: 5 }), co: fc.integer({ min: 1, max: 9 }) })
    .map(({ g, ci, co }) => ({ cin: g * ci, cout: g * co, groups: g })),
  fc.record({ c: fc.integer({ min: 1, max: 12 }), m: fc.constantFrom(1, 1, 2) }).map(({ c, m }) => ({ cin: c, cout: c * m, groups: c })),
);
const common = {
  batch: fc.constantFrom(1, 1, 2, 3), h: fc.integer({ min: 1, max: 9 }), w: fc.integer({ min: 1, max: 11 }),
  activation: fc.constantFrom(...(Object.keys(ACTIVATIONS) as Activation[])), alpha: fc.constantFrom(0.01, 0.1, -0.5),
  bias: fc.boolean(), extra: fc.tuple(fc.constantFrom(0, 0, 1, 3), fc.constantFrom(0, 0, 2, 5)),
  threads: fc.constantFrom(1, 2), order: fc.constantFrom<TileOrder>('forward', 'reverse', 'shuffled', 'pieces'), seed: fc.integer(),
};
/** Any transposed convolution, on each path that applies. */
const general: fc.Arbitrary<Spec> = fc.record({
  ch: channels, ...common, kernel: pair(fc.integer({ min: 1, max: 4 })), stride: pair(fc.integer({ min: 1, max: 3 })),
  dilation: pair(fc.constantFrom(1, 1, 2)), padding: pair(fc.integer({ min: 0, max: 3 })), outputPadding: pair(fc.integer({ min: 0, max: 2 })), pathIndex: fc.nat(),
}).map(({ ch, pathIndex, ...rest }) => {
  const s = { ...ch, ...rest, path: 'igemm' as TransposePath };
  return valid(s) ? { ...s, path: transposePaths(parseConvParams(transposeNode(s), true))[pathIndex % 2] ?? 'igemm' } : s;
}).filter(valid);
/** kernel = stride, no padding: the upsampling form the taps path takes. */
const upsampling: fc.Arbitrary<Spec> = fc.record({ ch: channels, ...common, stride: pair(fc.integer({ min: 1, max: 3 })) })
  .map(({ ch, stride, ...rest }) => ({ ...ch, ...rest, stride, kernel: stride, dilation: [1, 1] as const, padding: [0, 0] as const, outputPadding: [0, 0] as const, path: 'taps' as const }));

for (const variant of testVariants()) {
  for (const [name, specs, runs] of [['any shape, each applicable path', general, 250], ['kernel = stride on the taps path', upsampling, 150]] as const) {
    test(`${variant} build: transposed convolutions (${name}) match convTranspose2dReference`, () => {
      const rig = new ConvRig(variant);
      fc.assert(fc.property(specs, (s) => {
        const failure = runCase(rig, s);
        if (failure !== undefined) throw new Error(failure);
      }), { numRuns: runs });
    });
  }
}

test('the IGEMM glue takes an output image stride from the dense size up; refuses a smaller one, or one with a residual', () => {
  // 2 images of 4 pixels x 4 channels, one tap: the dense output image is 4 * 4 * 4 = 64 bytes.
  const at = (kib: number) => RESERVED_BYTES + kib * 1024;
  const call = {
    input: at(0), inImage: 64, inBytes: 64, ind: at(4), entries: Int32Array.of(0, 16, 32, 48), w: at(8), c: at(16), ldc: 4,
    pixels: 4, batch: 2, groups: 1, n: 4, k: 4, taps: 1,
  };
  const plan = planIgemm(call);
  validateIgemm({ ...call, cImage: 192 }, plan, 1 << 20);
  assert.throws(() => validateIgemm({ ...call, cImage: 32 }, plan, 1 << 20), /output image stride 32/);
  assert.throws(() => validateIgemm({ ...call, cImage: 192, residual: { r: at(32), ldr: 4 } }, plan, 1 << 20), /residual needs a dense output/);
  assert.throws(() => validateIgemm({ ...call, cImage: 1 << 20 }, plan, 1 << 20), /end past the memory/);
});
