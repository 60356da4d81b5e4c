// Shared by the convolution kernel tests: a random nn.Conv2d node, lowered through src/ops/fast/conv.ts
// (the real glue: packing, indirection, plans, parameter blocks) onto a kernel memory with 2 slots whose
// views have pixel strides larger than C and NaN in the gaps, its steps run in-process in a chosen tile
// order, and the result held to conv2dReference (+ residual, + activation in double precision).
import { Graph, type Node } from '../../src/graph/graph.ts';
import { P, type Param } from '../../src/graph/param.ts';
import type { Activation } from '../../src/kernels/activation.ts';
import { compileKernels, createKernelMemory, instantiateKernels, type KernelExports, type SimdVariant } from '../../src/kernels/module.ts';
import type { SharedMemory } from '../../src/kernels/wasm.ts';
import { convOutputSize, parseConvParams, type ConvParams, type PaddingMode } from '../../src/ops/conv-params.ts';
import { conv2dReference } from '../../src/ops/conv-reference.ts';
import { convPaths, lowerConv, type ConvPath } from '../../src/ops/fast/conv.ts';
import { maxBorder } from '../../src/ops/border.ts';
import type { BuildContext, PlannedStep } from '../../src/runtime/fast/lowering.ts';
import { viewFloats, type TensorView } from '../../src/runtime/fast/views.ts';
import { Arena } from '../../src/tensor/arena.ts';
import { nchwToNhwc, nhwcToNchw } from '../../src/tensor/nhwc.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { activationReference, prng } from './helpers.ts';

export const ACTIVATION_TYPES: Readonly<Record<Activation, string | undefined>> = {
  none: undefined, relu: 'nn.ReLU', relu6: 'nn.ReLU6', silu: 'nn.SiLU', hardswish: 'nn.Hardswish',
  sigmoid: 'nn.Sigmoid', leaky_relu: 'nn.LeakyReLU', hardsigmoid: 'nn.Hardsigmoid',
};

export type TileOrder = 'forward' | 'reverse' | 'shuffled' | 'pieces';

export interface ConvSpec {
  readonly batch: number;
  readonly cin: number;
  readonly cout: number;
  readonly groups: number;
  readonly h: number;
  readonly w: number;
  readonly kernel: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly dilation: readonly [number, number];
  /** Symmetric padding, or PyTorch's 'same' (asymmetric for even kernels) / 'valid'. */
  readonly padding: readonly [number, number] | 'same' | 'valid';
  readonly mode: PaddingMode;
  readonly activation: Activation;
  readonly alpha: number;
  readonly bias: boolean;
  readonly residual: boolean;
  /** Floats past C in each pixel of the input, output and residual views. */
  readonly extra: readonly [number, number, number];
  /** Path through conv.ts; undefined = the one the lowering picks. */
  readonly path: ConvPath | undefined;
  /** Worker count the plans are made for (unit and tile sizes depend on it). */
  readonly threads: number;
  readonly order: TileOrder;
  readonly seed: number;
}

export function describe(s: ConvSpec): string {
  const pad = typeof s.padding === 'string' ? s.padding : `(${s.padding.join(',')})`;
  return `N=${s.batch} Cin=${s.cin} Cout=${s.cout} groups=${s.groups} ${s.h}x${s.w} k=(${s.kernel.join(',')}) s=(${s.stride.join(',')}) ` +
    `d=(${s.dilation.join(',')}) pad=${pad} ${s.mode} act=${s.activation}${s.activation === 'leaky_relu' ? `(${s.alpha})` : ''} ` +
    `bias=${s.bias} residual=${s.residual} extra=(${s.extra.join(',')}) path=${s.path ?? 'auto'} threads=${s.threads} order=${s.order} seed=${s.seed}`;
}

/** The nn.Conv2d node of a spec, with seeded weights (x, [residual]) -> y, shapes set. */
export function convNode(s: ConvSpec): Node {
  const g = new Graph('conv-test');
  const params: Array<[string, Param]> = [
    ['in_channels', P.int(s.cin)], ['out_channels', P.int(s.cout)], ['kernel_size', P.ints(s.kernel)],
    ['stride', P.ints(s.stride)], ['dilation', P.ints(s.dilation)], ['groups', P.int(s.groups)],
    ['bias', P.bool(s.bias)], ['padding_mode', P.string(s.mode)],
    ['padding', typeof s.padding === 'string' ? P.string(s.padding) : P.ints(s.padding)],
  ];
  const type = ACTIVATION_TYPES[s.activation];
  if (type) params.push(['flowinfer.activation', P.string(type)]);
  if (s.activation === 'leaky_relu') params.push(['flowinfer.activation.negative_slope', P.float(s.alpha)]);
  if (s.residual) params.push(['flowinfer.residual', P.bool(true)]);
  const random = prng(s.seed ^ 0x5eed);
  const k = s.cin / s.groups;
  const scale = 1 / Math.sqrt(k * s.kernel[0] * s.kernel[1]);
  const weight = Float32Array.from({ length: s.cout * k * s.kernel[0] * s.kernel[1] }, () => (2 * random() - 1) * scale);
  const weights: Array<[string, { dtype: 'f32'; shape: number[]; data: Float32Array }]> = [['weight', { dtype: 'f32', shape: [s.cout, k, ...s.kernel], data: weight }]];
  if (s.bias) weights.push(['bias', { dtype: 'f32', shape: [s.cout], data: Float32Array.from({ length: s.cout }, () => 2 * random() - 1) }]);
  const x = g.value('x');
  const r = g.value('r');
  const y = g.value('y');
  const node = g.addNode({ type: 'nn.Conv2d', name: 'conv', inputs: s.residual ? [x, r] : [x], outputs: [y], params, weights });
  const c = parseConvParams(node, false);
  const [oh, ow] = outputSize(c, s.h, s.w);
  x.shape = [s.batch, s.cin, s.h, s.w];
  y.shape = [s.batch, s.cout, oh, ow];
  r.shape = y.shape;
  return node;
}

function outputSize(c: ConvParams, h: number, w: number): [number, number] {
  return [
    convOutputSize(h, c.kernel[0], c.stride[0], c.dilation[0], c.padBegin[0], c.padEnd[0]),
    convOutputSize(w, c.kernel[1], c.stride[1], c.dilation[1], c.padBegin[1], c.padEnd[1]),
  ];
}

/** Whether PyTorch accepts the spec (output at least 1x1, padding within the mode's limit). */
export function validSpec(s: ConvSpec): boolean {
  if (s.cin % s.groups !== 0 || s.cout % s.groups !== 0) return false;
  if (s.padding === 'same' && (s.stride[0] !== 1 || s.stride[1] !== 1)) return false;
  const total = (k: number, d: number) => d * (k - 1);
  const pads: Array<[number, number]> = s.padding === 'valid' ? [[0, 0], [0, 0]]
    : s.padding === 'same' ? [0, 1].map((i) => [Math.floor(total(s.kernel[i]!, s.dilation[i]!) / 2), Math.ceil(total(s.kernel[i]!, s.dilation[i]!) / 2)] as [number, number])
    : [[s.padding[0], s.padding[0]], [s.padding[1], s.padding[1]]];
  const sizes = [s.h, s.w];
  for (let i = 0; i < 2; i++) {
    const [b, e] = pads[i]!;
    if (convOutputSize(sizes[i]!, s.kernel[i]!, s.stride[i]!, s.dilation[i]!, b, e) < 1) return false;
    if (s.mode !== 'zeros' && Math.max(b, e) > maxBorder(sizes[i]!, s.mode)) return false;
  }
  return true;
}

/** A kernel memory with its exports, reused across cases (a new Arena per case starts at the bottom again). */
export class ConvRig {
  readonly memory: SharedMemory;
  readonly kernels: KernelExports;

  constructor(readonly variant: SimdVariant) {
    this.memory = createKernelMemory({ initialPages: 64 });
    this.kernels = instantiateKernels(compileKernels(variant), this.memory, variant).exports;
  }
}

export const SENTINEL = 0x7fc0dead; // a NaN: an output gap that still holds it was not written

/** Runs the spec through the lowering and kernels; returns the first mismatch as a message, or undefined. */
export function runConvCase(rig: ConvRig, s: ConvSpec): string | undefined {
  const prepared = prepareConvCase(rig, s);
  if (typeof prepared === 'string') return prepared;
  const random = prng(~s.seed);
  for (let slot = prepared.slotBases.length - 1; slot >= 0; slot--) {
    for (const step of prepared.steps) runStep(rig.kernels, step, slot, s.order, random);
  }
  return prepared.check();
}

export interface PreparedConv {
  readonly steps: readonly PlannedStep[];
  readonly slotBases: readonly number[];
  /** After every step ran for every slot: the first mismatch, or undefined. */
  check(): string | undefined;
}

/** Lowers the spec onto the rig's memory (2 slots, inputs written); the steps are left to the caller. */
export function prepareConvCase(rig: ConvRig, s: ConvSpec): PreparedConv | string {
  const node = convNode(s);
  const c = parseConvParams(node, false);
  const path = s.path ?? convPaths(c)[0]!;
  const lowered = lowerConv(node, undefined, { path });
  if (!lowered) return `${describe(s)}: not lowered`;
  const arena = new Arena(rig.memory);
  const random = prng(s.seed);
  const xShape = node.inputs[0]!.shape!;
  const yShape = node.outputs[0]!.shape!;
  const view = (shape: readonly number[], extra: number, offset: number): TensorView => ({ offset, shape, layout: 'nhwc', pixelStride: shape[1]! + extra });
  // Slot layout (floats): [gap] input [gap] output [gap] residual [gap] scratch..., gaps of 0..7 floats.
  let top = 0;
  const place = (shape: readonly number[], extra: number): TensorView => {
    top += Math.floor(random() * 8);
    const v = view(shape, extra, top * 4);
    top += viewFloats(v);
    return v;
  };
  const input = place(xShape, s.extra[0]);
  const output = place(yShape, s.extra[1]);
  const residual = s.residual ? place(yShape, s.extra[2]) : undefined;
  top = Math.ceil(top / 16) * 16;
  const scratchViews = (lowered.scratch ?? []).map((bytes) => {
    const v: TensorView = { offset: top * 4, shape: [bytes / 4], layout: 'plain', pixelStride: 1 };
    top += Math.ceil(bytes / 64) * 16;
    return v;
  });
  const slotFloats = top + 8;
  const slotBases = [arena.alloc(slotFloats * 4, 64), arena.alloc(slotFloats * 4 + 64, 64) + 16];
  for (const base of slotBases) new Uint32Array(rig.memory.buffer, base, slotFloats).fill(SENTINEL);
  const ctx: BuildContext = {
    arena, slotBases, threads: s.threads,
    view: (v) => (v === node.inputs[0] ? input : v === node.outputs[0] ? output : residual!),
    scratch: (i) => scratchViews[i]!,
  };
  const steps = lowered.build(ctx);
  // Per slot: random input (and residual) written through the views; NaN stays in the gaps.
  const tensors = slotBases.map((base) => {
    const x = Tensor.f32(xShape, Float32Array.from({ length: xShape.reduce((a, b) => a * b, 1) }, () => 2 * random() - 1));
    write(rig.memory, base, input, x);
    const r = residual && Tensor.f32(yShape, Float32Array.from({ length: yShape.reduce((a, b) => a * b, 1) }, () => 4 * random() - 2));
    if (r && residual) write(rig.memory, base, residual, r);
    return { x, r };
  });
  const before = slotBases.map((base) => new Uint32Array(rig.memory.buffer.slice(base, base + slotFloats * 4)));
  const check = (): string | undefined => {
    const p = node.weights;
    const weight = p.get('weight')!.data as Float32Array;
    const bias = s.bias ? (p.get('bias')!.data as Float32Array) : undefined;
    for (let slot = 0; slot < slotBases.length; slot++) {
      const base = slotBases[slot]!;
      const { x, r } = tensors[slot]!;
      const label = `${rig.variant} ${path} slot ${slot}: ${describe(s)}`;
      const failure = untouched(rig.memory, base, before[slot]!, [input, ...(residual ? [residual] : [])], output, label) ??
        compare(read(rig.memory, base, output), expected(c, s, x, weight, bias, r), label);
      if (failure) return failure;
    }
    return undefined;
  };
  return { steps, slotBases, check };
}

export function write(memory: SharedMemory, base: number, v: TensorView, t: Tensor): void {
  const [n, ch, h, w] = v.shape as [number, number, number, number];
  nchwToNhwc(t.f32, new Float32Array(memory.buffer, base + v.offset, viewFloats(v)), n, ch, h, w, v.pixelStride);
}

export function read(memory: SharedMemory, base: number, v: TensorView): Tensor {
  const [n, ch, h, w] = v.shape as [number, number, number, number];
  const out = new Float32Array(n * ch * h * w);
  nhwcToNchw(new Float32Array(memory.buffer, base + v.offset, viewFloats(v)), out, n, ch, h, w, v.pixelStride);
  return Tensor.f32(v.shape, out);
}

/** Runs every tile of a step for `slot` in the given order (`pieces`: each tile's range cut in random parts). */
export function runStep(k: KernelExports, planned: PlannedStep, slot: number, order: TileOrder, random: () => number): void {
  const step = planned.step;
  const tiles = Array.from({ length: planned.tiles }, (_, i) => i);
  if (order === 'reverse') tiles.reverse();
  if (order === 'shuffled') tiles.sort(() => random() - 0.5);
  if (step.kind === 'range') {
    const fn = k[step.fn];
    for (const t of tiles) {
      const u0 = t * step.perTile;
      const u1 = Math.min(step.units, u0 + step.perTile);
      if (order !== 'pieces') fn(step.params[slot]!, u0, u1);
      else for (let u = u0; u < u1;) {
        const next = Math.min(u1, u + 1 + Math.floor(random() * 3));
        fn(step.params[slot]!, u, next);
        u = next;
      }
    }
  } else if (step.kind === 'gemm') {
    const tilesN = Math.ceil(step.panels / step.tileN);
    for (const t of tiles) {
      const tm = Math.floor(t / tilesN);
      const tn = t - tm * tilesN;
      k.f32_gemm_4x8(step.params[slot]!, tm * step.tileM, Math.min(step.m, (tm + 1) * step.tileM), tn * step.tileN, Math.min(step.panels, (tn + 1) * step.tileN));
    }
  } else {
    throw new Error(`unexpected step kind ${step.kind}`);
  }
}

/** conv2dReference, + residual (float32 add), activation in double; also the pre-activation magnitude. */
function expected(c: ConvParams, s: ConvSpec, x: Tensor, weight: Float32Array, bias: Float32Array | undefined, r: Tensor | undefined): { y: Float32Array; scale: number; shape: readonly number[] } {
  const y = conv2dReference(c, x, weight, bias);
  const d = y.f32;
  if (r) for (let i = 0; i < d.length; i++) d[i] = d[i]! + r.f32[i]!;
  const { f, slope } = activationReference(s.activation, s.alpha);
  let pre = 0;
  let post = 0;
  const out = new Float32Array(d.length);
  for (let i = 0; i < d.length; i++) {
    pre = Math.max(pre, Math.abs(d[i]!));
    out[i] = f(d[i]!);
    post = Math.max(post, Math.abs(out[i]!));
  }
  return { y: out, scale: Math.max(post, slope * pre, 1e-30), shape: y.shape };
}

/** Within 1e-5 of the largest magnitude (of the output, or of the pre-activation times the slope). */
export function compare(got: Tensor, want: { y: Float32Array; scale: number; shape: readonly number[] }, label: string): string | undefined {
  const tolerance = 1e-5 * want.scale;
  const [, ch, h, w] = want.shape as [number, number, number, number];
  for (let i = 0; i < want.y.length; i++) {
    const e = want.y[i]!;
    const g = got.f32[i]!;
    if (!(Math.abs(g - e) <= tolerance)) {
      const index = [Math.floor(i / (ch * h * w)), Math.floor(i / (h * w)) % ch, Math.floor(i / w) % h, i % w];
      return `${label}: output[${index.join(',')}] of (${want.shape.join(',')}) expected ${e}, got ${g} (|diff| ${Math.abs(g - e).toExponential(2)} > ${tolerance.toExponential(2)})`;
    }
  }
  return undefined;
}

/** Only the output's own floats changed in the slot (inputs intact, gaps still sentinels). */
export function untouched(memory: SharedMemory, base: number, before: Uint32Array, inputs: TensorView[], output: TensorView, label: string): string | undefined {
  const now = new Uint32Array(memory.buffer, base, before.length);
  const [n, ch, h, w] = output.shape as [number, number, number, number];
  const o0 = output.offset / 4;
  const isOutput = (i: number) => i >= o0 && i < o0 + viewFloats(output) && (i - o0) % output.pixelStride < ch;
  const scratchFrom = Math.max(...[...inputs, output].map((v) => v.offset / 4 + viewFloats(v)));
  for (let i = 0; i < Math.min(scratchFrom, before.length); i++) {
    if (isOutput(i) || now[i] === before[i]) continue;
    const inView = inputs.find((v) => i >= v.offset / 4 && i < v.offset / 4 + viewFloats(v));
    return `${label}: float ${i} of the slot changed (${inView ? 'inside an input' : 'a gap'}; output ${n}x${h}x${w}x${ch} at ${o0}, stride ${output.pixelStride})`;
  }
  return undefined;
}

