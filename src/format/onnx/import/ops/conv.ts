// Conv → nn.Conv2d and ConvTranspose → nn.ConvTranspose2d, with the weights (constants at load) as @weight
// and @bias. Both take PyTorch's weight layouts as ONNX stores them.
//   Conv pads: symmetric → padding=(h,w); stride 1 with the odd extra pixel after → padding='same'
//   (PyTorch's split); any other asymmetric pads → an F.pad before a convolution with no padding.
//   ConvTranspose pads: symmetric → padding; asymmetric → the symmetric part as padding, the rest cropped
//   by a Tensor.slice whose end counts from the end (so it holds for any input size); output_shape and
//   auto_pad are turned into pads as the ONNX definition does.

import type { Weight } from '../../../../graph/graph.ts';
import { P, type Param } from '../../../../graph/param.ts';
import { toFloat32 } from '../../../../tensor/dtype.ts';
import type { Tensor } from '../../../../tensor/tensor.ts';
import type { Converter, ImportContext, OnnxNode, Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { padSpatial, readWindow, symmetric } from './window.ts';

const f32Weight = (t: Tensor): Weight => ({ dtype: 'f32', shape: [...t.shape], data: Float32Array.from(toFloat32(t.dtype, t.data)) });

function weights(ctx: ImportContext, node: OnnxNode): { w: Tensor; b: Tensor | undefined } {
  const w = ctx.constantInput(node, 1, 'the weight')!;
  if (w.shape.length !== 4) throw new Unsupported(`weight of shape (${w.shape.join(',')}): only 2-D convolutions (4-D weights) are supported`);
  const b = ctx.constantInput(node, 2, 'the bias');
  if (b && (b.shape.length !== 1 || b.shape[0] !== (node.opType === 'Conv' ? w.shape[0] : w.shape[1]! * node.attrs.int('group', 1)))) {
    throw new Unsupported(`bias of shape (${b.shape.join(',')}) does not match the weight (${w.shape.join(',')})`);
  }
  return { w, b };
}

function weightParams(w: Tensor, b: Tensor | undefined): Array<[string, Weight]> {
  return b ? [['weight', f32Weight(w)], ['bias', f32Weight(b)]] : [['weight', f32Weight(w)]];
}

export const conv: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const { w, b } = weights(ctx, node);
  const group = node.attrs.int('group', 1);
  const win = readWindow(ctx, node, x, node.attrs.ints('kernel_shape') ?? w.shape.slice(2));
  if (win.kernel[0] !== w.shape[2] || win.kernel[1] !== w.shape[3]) throw new Unsupported(`kernel_shape=[${win.kernel.join(',')}] does not match the weight (${w.shape.join(',')})`);
  let input: Operand = x;
  let padding: Param;
  const sameSplit = [0, 1].every((i) => {
    const total = win.dilation[i]! * (win.kernel[i]! - 1);
    return win.stride[i] === 1 && win.begin[i] === Math.floor(total / 2) && win.end[i] === total - Math.floor(total / 2);
  });
  if (symmetric(win)) padding = P.ints(win.begin);
  else if (sameSplit) padding = P.string('same');
  else {
    input = padSpatial(ctx, x, win.begin, win.end, 0);
    padding = P.ints([0, 0]);
  }
  const out = node.outputs[0]!;
  ctx.set(out, ctx.op1('nn.Conv2d', [input], {
    params: [
      ['in_channels', P.int(w.shape[1]! * group)], ['out_channels', P.int(w.shape[0]!)],
      ['kernel_size', P.ints(win.kernel)], ['stride', P.ints(win.stride)], ['padding', padding],
      ['dilation', P.ints(win.dilation)], ['groups', P.int(group)], ['bias', P.bool(b !== undefined)],
      ['padding_mode', P.string('zeros')],
    ],
    weights: weightParams(w, b),
    outputs: [out],
  }));
};

/** ConvTranspose's begin/end pads, from output_shape or auto_pad when given (the ONNX definition's rule). */
function transposePads(node: OnnxNode, size: readonly number[], k: readonly number[], s: readonly number[], d: readonly number[], op: readonly number[], pads: { begin: number[]; end: number[] }): void {
  const outputShape = node.attrs.ints('output_shape');
  const autoPad = node.attrs.string('auto_pad', 'NOTSET');
  if (!outputShape && (autoPad === 'NOTSET' || autoPad === 'VALID')) return;
  const target = outputShape ? outputShape.slice(-2) : size.map((n, i) => n * s[i]!);
  for (let i = 0; i < 2; i++) {
    const total = s[i]! * (size[i]! - 1) + op[i]! + (k[i]! - 1) * d[i]! + 1 - target[i]!;
    if (total < 0) throw new Unsupported(`output_shape=[${target.join(',')}] is larger than the full transposed convolution`);
    const half = Math.floor(total / 2);
    [pads.begin[i], pads.end[i]] = autoPad === 'SAME_UPPER' ? [half, total - half] : [total - half, half];
  }
}

export const convTranspose: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const { w, b } = weights(ctx, node);
  const group = node.attrs.int('group', 1);
  const shape = ctx.shapeOf(x);
  if (shape.length !== 4) throw new Unsupported(`input of shape (${shape.join(',')}): only 2-D transposed convolutions are supported`);
  const kernel = node.attrs.ints('kernel_shape') ?? w.shape.slice(2);
  const stride = node.attrs.ints('strides', [1, 1]);
  const dilation = node.attrs.ints('dilations', [1, 1]);
  const outputPadding = node.attrs.ints('output_padding', [0, 0]);
  const raw = node.attrs.ints('pads', [0, 0, 0, 0]);
  const pads = { begin: [raw[0]!, raw[1]!], end: [raw[2]!, raw[3]!] };
  transposePads(node, shape.slice(2), kernel, stride, dilation, outputPadding, pads);
  if (node.attrs.has('output_shape') && ctx.probe(node.inputs[0]!)) ctx.specialise('output_shape fixes the pads for this input size');
  if (outputPadding.some((op, i) => op >= Math.max(stride[i]!, dilation[i]!))) {
    throw new Unsupported(`output_padding=[${outputPadding.join(',')}] must be below max(stride, dilation) (PyTorch's rule)`);
  }
  const common = Math.min;
  const padding = [common(pads.begin[0]!, pads.end[0]!), common(pads.begin[1]!, pads.end[1]!)];
  const crop = [0, 1].map((i) => [pads.begin[i]! - padding[i]!, pads.end[i]! - padding[i]!] as const);
  const cropped = crop.some(([a, z]) => a > 0 || z > 0);
  const out = node.outputs[0]!;
  let y = ctx.op1('nn.ConvTranspose2d', [x], {
    params: [
      ['in_channels', P.int(w.shape[0]!)], ['out_channels', P.int(w.shape[1]! * group)],
      ['kernel_size', P.ints(kernel)], ['stride', P.ints(stride)], ['padding', P.ints(padding)],
      ['output_padding', P.ints(outputPadding)], ['dilation', P.ints(dilation)], ['groups', P.int(group)],
      ['bias', P.bool(b !== undefined)],
    ],
    weights: weightParams(w, b),
    outputs: cropped ? 1 : [out],
  });
  if (cropped) {
    // Ends count back from the end: the crop fits any input size.
    y = ctx.op1('Tensor.slice', [y], {
      params: [['dims', P.ints([2, 3])], ['starts', P.ints(crop.map(([a]) => a))], ['ends', P.ints(crop.map(([, z]) => (z > 0 ? -z : 2147483647)))], ['steps', P.ints([1, 1])]],
      outputs: [out], suffix: 'crop',
    });
  }
  ctx.set(out, y);
};
