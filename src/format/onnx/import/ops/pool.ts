// MaxPool → nn.MaxPool2d, AveragePool → nn.AvgPool2d, GlobalAveragePool / GlobalMaxPool → adaptive pooling
// to 1x1. PyTorch pools take symmetric pads of at most half the kernel; other pads become an explicit F.pad
// (-inf for max, zeros for average). An average that must not count those padded zeros (ONNX's default,
// count_include_pad=0) is then rescaled per output position by (cells the pool divided by) / (real cells):
// a constant map computed at load, exact for this input size.

import { P } from '../../../../graph/param.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { poolOutputSize } from '../../../../ops/pool-params.ts';
import { constant, type Converter, type ImportContext, type OnnxNode } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { expression } from './expression.ts';
import { call } from '../../../../expr/index.ts';
import { padSpatial, readWindow, symmetric, type Window2d } from './window.ts';

/** Whether PyTorch takes these pads as they are: symmetric, at most half the kernel. */
const torchPads = (w: Window2d) => symmetric(w) && [0, 1].every((i) => w.begin[i]! <= Math.floor(w.kernel[i]! / 2));

function usedOutputs(ctx: ImportContext, node: OnnxNode): void {
  const extra = node.outputs.slice(1).find((o) => o !== '' && (ctx.consumers.get(o) ?? 0) > 0);
  if (extra) throw new Unsupported(`output "${extra}" (the argmax indices) is used; only the pooled values are computed`);
}

export const maxPool: Converter = (ctx, node) => {
  usedOutputs(ctx, node);
  node.attrs.ignore('storage_order'); // only orders the indices output
  const x = ctx.get(node.inputs[0]!);
  const win = readWindow(ctx, node, x, undefined);
  const ceil = node.attrs.int('ceil_mode', 0) === 1;
  const direct = torchPads(win);
  const input = direct ? x : padSpatial(ctx, x, win.begin, win.end, -Infinity);
  ctx.set(node.outputs[0]!, ctx.op1('nn.MaxPool2d', [input], {
    params: [
      ['kernel_size', P.ints(win.kernel)], ['stride', P.ints(win.stride)], ['padding', P.ints(direct ? win.begin : [0, 0])],
      ['dilation', P.ints(win.dilation)], ['ceil_mode', P.bool(ceil)], ['return_indices', P.bool(false)],
    ],
    outputs: [node.outputs[0]!],
  }));
};

/**
 * Per output position of an average over a zero-padded input: (cells PyTorch divides by, the window clipped
 * to the padded input) / (cells inside the original input). Shape (1, 1, OH, OW).
 */
function rescaleMap(w: Window2d, size: readonly number[], out: readonly number[]): Tensor {
  const factor = (i: number, o: number) => {
    const padded = size[i]! + w.begin[i]! + w.end[i]!;
    const start = o * w.stride[i]!;
    const stop = Math.min(start + w.kernel[i]!, padded);
    const real = Math.min(stop, w.begin[i]! + size[i]!) - Math.max(start, w.begin[i]!);
    return [stop - start, Math.max(real, 0)] as const;
  };
  const data = new Float32Array(out[0]! * out[1]!);
  for (let oy = 0; oy < out[0]!; oy++) {
    const [dy, ry] = factor(0, oy);
    for (let ox = 0; ox < out[1]!; ox++) {
      const [dx, rx] = factor(1, ox);
      data[oy * out[1]! + ox] = ry * rx === 0 ? 0 : (dy * dx) / (ry * rx);
    }
  }
  return Tensor.f32([1, 1, out[0]!, out[1]!], data);
}

export const averagePool: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const win = readWindow(ctx, node, x, undefined);
  if (win.dilation.some((d) => d !== 1)) throw new Unsupported(`dilations=[${win.dilation.join(',')}]: PyTorch's average pool has no dilation`);
  const ceil = node.attrs.int('ceil_mode', 0) === 1;
  const includePad = node.attrs.int('count_include_pad', 0) === 1;
  const out = node.outputs[0]!;
  const params = (padding: readonly number[]) => [
    ['kernel_size', P.ints(win.kernel)], ['stride', P.ints(win.stride)], ['padding', P.ints(padding)],
    ['ceil_mode', P.bool(ceil)], ['count_include_pad', P.bool(includePad)],
  ] as Array<[string, ReturnType<typeof P.int>]>;
  if (torchPads(win)) {
    ctx.set(out, ctx.op1('nn.AvgPool2d', [x], { params: params(win.begin), outputs: [out] }));
    return;
  }
  const padded = padSpatial(ctx, x, win.begin, win.end, 0);
  const pooled = ctx.op1('nn.AvgPool2d', [padded], { params: params([0, 0]), outputs: includePad ? [out] : 1 });
  if (includePad) {
    ctx.set(out, pooled);
    return;
  }
  const shape = ctx.shapeOf(x);
  const size = [shape[2]!, shape[3]!];
  const outSize = [0, 1].map((i) => poolOutputSize(size[i]! + win.begin[i]! + win.end[i]!, win.kernel[i]!, win.stride[i]!, 0, 1, ceil));
  const other = ctx.probe(node.inputs[0]!)?.shape;
  if (other && (other[2] !== shape[2] || other[3] !== shape[3])) ctx.specialise(`count_include_pad=0 with asymmetric pads: the divisor map holds for a ${size.join('x')} input only`);
  const map = rescaleMap(win, size, outSize);
  ctx.set(out, expression(ctx, [pooled, constant(map)], ([a, m]) => call('mul', a!, m!), out, 'rescale'));
};

function globalPool(kind: 'avg' | 'max'): Converter {
  return (ctx, node) => {
    const x = ctx.get(node.inputs[0]!);
    const rank = ctx.shapeOf(x).length;
    const out = node.outputs[0]!;
    if (rank === 4) {
      const type = kind === 'avg' ? 'nn.AdaptiveAvgPool2d' : 'nn.AdaptiveMaxPool2d';
      ctx.set(out, ctx.op1(type, [x], { params: [['output_size', P.ints([1, 1])]], outputs: [out] }));
    } else if (kind === 'avg' && rank >= 3) {
      const dims = Array.from({ length: rank - 2 }, (_, i) => i + 2);
      ctx.set(out, ctx.op1('torch.mean', [x], { params: [['dim', P.ints(dims)], ['keepdim', P.bool(true)]], outputs: [out] }));
    } else {
      throw new Unsupported(`input of rank ${rank}: global ${kind} pooling is supported on (N,C,H,W)${kind === 'avg' ? ' and other ranks >= 3' : ''}`);
    }
  };
}

export const POOLS: ReadonlyArray<[string, Converter]> = [
  ['MaxPool', maxPool],
  ['AveragePool', averagePool],
  ['GlobalAveragePool', globalPool('avg')],
  ['GlobalMaxPool', globalPool('max')],
];
