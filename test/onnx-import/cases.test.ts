// ONNX forms the backend test data does not reach, each as a small model checked against onnxruntime-node
// on both engines: asymmetric and SAME pads, count_include_pad=0 with uneven pads, ConvTranspose crops and
// output_shape, Resize modes, DepthToSpace orders, Gemm's alpha/beta/transA, opset-11 Softmax flattening,
// axes as inputs (opset 13/18), and the activations exporters spell out (found back as one op).
import { test } from 'node:test';
import { attr } from '../../src/format/onnx/builder.ts';
import { checkModel, onnxModel, randomInput, type ModelSpec } from './models.ts';

interface Case {
  readonly name: string;
  readonly opset?: number;
  readonly shape: readonly number[];
  readonly build: ModelSpec['build'];
  readonly expect?: readonly string[];
  readonly range?: readonly [number, number];
  /** Outputs besides y. */
  readonly more?: readonly string[];
}

const x4 = [1, 4, 9, 11];

const CASES: readonly Case[] = [
  {
    name: 'Conv with asymmetric pads (an F.pad first)', shape: x4, expect: ['F.pad', 'nn.Conv2d'],
    build: (b, w) => b.op('Conv', ['x', w([6, 4, 3, 3]), w([6])], { pads: attr.ints([0, 1, 2, 0]), strides: attr.ints([2, 1]) }, 'c', 'y'),
  },
  {
    name: 'Conv auto_pad SAME_UPPER, stride 1 even kernel (padding=same) and stride 2', shape: x4,
    build: (b, w) => {
      const a = b.op('Conv', ['x', w([5, 4, 2, 2])], { auto_pad: attr.string('SAME_UPPER') }, 'a');
      b.op('Conv', [a, w([3, 5, 3, 3])], { auto_pad: attr.string('SAME_LOWER'), strides: attr.ints([2, 2]) }, 'c', 'y');
    },
  },
  {
    name: 'ConvTranspose with asymmetric pads and output_padding (a crop after)', shape: [1, 4, 5, 6], expect: ['Tensor.slice'],
    build: (b, w) => b.op('ConvTranspose', ['x', w([4, 3, 3, 3]), w([3])], { strides: attr.ints([2, 2]), pads: attr.ints([0, 1, 1, 0]), output_padding: attr.ints([1, 0]) }, 'c', 'y'),
  },
  {
    name: 'ConvTranspose with output_shape and groups', shape: [1, 4, 5, 6],
    build: (b, w) => b.op('ConvTranspose', ['x', w([4, 2, 3, 3])], { strides: attr.ints([2, 2]), group: attr.int(2), output_shape: attr.ints([10, 12]) }, 'c', 'y'),
  },
  {
    name: 'AveragePool count_include_pad=0 with uneven pads (rescaled), and 1 with large pads', shape: x4,
    build: (b) => {
      const a = b.op('AveragePool', ['x'], { kernel_shape: attr.ints([3, 3]), strides: attr.ints([2, 2]), pads: attr.ints([0, 0, 1, 2]) }, 'a');
      b.op('AveragePool', [a], { kernel_shape: attr.ints([3, 3]), pads: attr.ints([2, 1, 0, 1]), count_include_pad: attr.int(1) }, 'p', 'y');
    },
  },
  {
    name: 'MaxPool with uneven pads, dilation and ceil_mode', shape: x4,
    build: (b) => b.op('MaxPool', ['x'], { kernel_shape: attr.ints([3, 2]), strides: attr.ints([2, 2]), pads: attr.ints([1, 0, 0, 1]), dilations: attr.ints([1, 2]), ceil_mode: attr.int(1) }, 'p', 'y'),
  },
  {
    name: 'Resize nearest asymmetric floor, scales 2 (nn.Upsample nearest)', shape: [1, 2, 3, 4], opset: 13,
    build: (b) => b.op('Resize', ['x', '', b.f32('s', [4], [1, 1, 2, 2])], { mode: attr.string('nearest'), coordinate_transformation_mode: attr.string('asymmetric'), nearest_mode: attr.string('floor') }, 'r', 'y'),
  },
  {
    name: 'Resize nearest half_pixel round_prefer_ceil at 1.5 (nearest-exact)', shape: [1, 2, 4, 6], opset: 13,
    build: (b) => b.op('Resize', ['x', '', b.f32('s', [4], [1, 1, 1.5, 1.5])], { mode: attr.string('nearest'), nearest_mode: attr.string('round_prefer_ceil') }, 'r', 'y'),
  },
  {
    name: 'Resize linear half_pixel by sizes, and cubic align_corners by scales', shape: [1, 2, 5, 7], opset: 13,
    build: (b) => {
      const a = b.op('Resize', ['x', '', '', b.i64('s', [1, 2, 9, 5])], { mode: attr.string('linear') }, 'a');
      b.op('Resize', [a, '', b.f32('c', [4], [1, 1, 2, 2])], { mode: attr.string('cubic'), coordinate_transformation_mode: attr.string('align_corners') }, 'r', 'y');
    },
  },
  {
    name: 'Upsample (opset 9) nearest', shape: [1, 2, 3, 4], opset: 9,
    build: (b) => b.op('Upsample', ['x', b.f32('s', [4], [1, 1, 2, 3])], {}, 'u', 'y'),
  },
  {
    name: 'DepthToSpace DCR (default) and CRD', shape: [1, 8, 3, 2], opset: 13, expect: ['onnx.DepthToSpace', 'nn.PixelShuffle'],
    build: (b) => {
      const a = b.op('DepthToSpace', ['x'], { blocksize: attr.int(2) }, 'a');
      const c = b.op('DepthToSpace', ['x'], { blocksize: attr.int(2), mode: attr.string('CRD') }, 'c');
      b.op('Add', [a, c], {}, 'add', 'y');
    },
  },
  {
    name: 'Gemm transA, transB, alpha, beta, C of shape (M, N); MatMul of two run-time tensors', shape: [5, 3],
    build: (b, w) => {
      const g = b.op('Gemm', ['x', w([4, 5]), w([3, 4])], { transA: attr.int(1), transB: attr.int(1), alpha: attr.float(0.5), beta: attr.float(2) }, 'g');
      b.op('MatMul', [g, b.op('Transpose', [g], {}, 't')], {}, 'mm', 'y');
    },
  },
  {
    name: 'Softmax opset 11 on axis 1 of (2,3,4): normalised over the flattened 3x4', shape: [2, 3, 4], opset: 11,
    build: (b) => b.op('Softmax', ['x'], { axis: attr.int(1) }, 's', 'y'),
  },
  {
    name: 'ReduceMean with axes as an input (opset 18), Split with num_outputs, Slice with steps', shape: [2, 6, 8], opset: 18, more: ['z'],
    build: (b) => {
      const m = b.op('ReduceMean', ['x', b.i64('a', [1])], { keepdims: attr.int(1) }, 'm');
      const [s0, s1] = b.ops('Split', ['x'], { axis: attr.int(1), num_outputs: attr.int(2) }, 'sp', 2);
      b.op('Slice', [s1!, b.i64('st', [-7, 1]), b.i64('en', [100, 100]), b.i64('ax', [2, 1]), b.i64('sp', [2, 2])], {}, 'sl', 'z');
      b.op('Concat', [b.op('Mul', [s0!, m], {}, 'mul'), b.op('Slice', [s1!, b.i64('s2', [0]), b.i64('e2', [8]), b.i64('a2', [2]), b.i64('p2', [1])], {}, 'sl2')], { axis: attr.int(1) }, 'c', 'y');
    },
  },
  {
    name: 'Tile, Gather of one index, Where with a constant condition, Unsqueeze of two axes', shape: [2, 3, 4], opset: 13,
    build: (b, w) => {
      const tiled = b.op('Tile', ['x', b.i64('r', [1, 2, 1])], {}, 't');
      const row = b.op('Gather', [tiled, b.initializer('i', 'i64', [], BigInt64Array.of(-2n))], { axis: attr.int(1) }, 'g');
      const cond = b.initializer('cond', 'bool', [4], Uint8Array.of(1, 0, 0, 1));
      const picked = b.op('Where', [cond, row, w([1, 4])], {}, 'w');
      b.op('Unsqueeze', [picked, b.i64('ax', [0, -1])], {}, 'u', 'y');
    },
  },
  {
    name: 'InstanceNormalization, LRN, PRelu per channel, Selu, HardSigmoid(0.2), Clip', shape: [2, 4, 5, 5], opset: 13,
    build: (b, w) => {
      const n = b.op('InstanceNormalization', ['x', w([4], 0.5, 1.5), w([4])], { epsilon: attr.float(1e-3) }, 'in');
      const l = b.op('LRN', [n], { size: attr.int(3), alpha: attr.float(0.1), beta: attr.float(0.6), bias: attr.float(1.5) }, 'lrn');
      const p = b.op('PRelu', [l, w([4, 1, 1], 0, 0.5)], {}, 'pr');
      const s = b.op('Selu', [p], {}, 'selu');
      const h = b.op('HardSigmoid', [s], {}, 'hs');
      b.op('Clip', [b.op('Add', [h, s], {}, 'a'), b.scalar(-0.5), b.scalar(0.8)], {}, 'clip', 'y');
    },
  },
  {
    name: 'x * clip(x + 3, 0, 6) / 6, x * sigmoid(x) and a decomposed layer norm become one op each', shape: [1, 3, 4, 8], opset: 18,
    expect: ['nn.Hardswish', 'nn.SiLU', 'nn.LayerNorm'],
    build: (b, w) => {
      const conv = b.op('Conv', ['x', w([3, 3, 1, 1])], {}, 'conv');
      const clip = b.op('Clip', [b.op('Add', [conv, b.scalar(3)], {}, 'a3'), b.scalar(0), b.scalar(6)], {}, 'clip');
      const hs = b.op('Div', [b.op('Mul', [conv, clip], {}, 'm'), b.scalar(6)], {}, 'hs');
      const silu = b.op('Mul', [hs, b.op('Sigmoid', [hs], {}, 'sig')], {}, 'silu');
      const mean = b.op('ReduceMean', [silu, b.i64('ax', [-1])], {}, 'mean');
      const d = b.op('Sub', [silu, mean], {}, 'd');
      const v = b.op('ReduceMean', [b.op('Pow', [d, b.scalar(2)], {}, 'p'), b.i64('ax2', [-1])], {}, 'v');
      const norm = b.op('Div', [d, b.op('Sqrt', [b.op('Add', [v, b.scalar(1e-5)], {}, 'e')], {}, 's')], {}, 'n');
      b.op('Add', [b.op('Mul', [norm, w([8])], {}, 'g'), w([8])], {}, 'beta', 'y');
    },
  },
];

for (const c of CASES) {
  test(`import: ${c.name}`, async (t) => {
    const bytes = onnxModel({ opset: c.opset ?? 17, inputs: [{ name: 'x', dims: c.shape }], outputs: ['y', ...(c.more ?? [])], build: c.build });
    await checkModel(t, bytes, { runs: [[randomInput(c.shape, 7, ...(c.range ?? [-1, 1]))]], expect: c.expect });
  });
}
