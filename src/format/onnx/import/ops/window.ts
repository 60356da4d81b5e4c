// The window attributes Conv, ConvTranspose and the pools share (kernel_shape, strides, dilations, pads,
// auto_pad), resolved to 2-D begin/end pads, and the explicit F.pad that asymmetric pads become.

import { P } from '../../../../graph/param.ts';
import type { Shape } from '../../../../tensor/shape.ts';
import type { ImportContext, OnnxNode, Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';

export interface Window2d {
  readonly kernel: [number, number];
  readonly stride: [number, number];
  readonly dilation: [number, number];
  readonly begin: [number, number];
  readonly end: [number, number];
}

const pair = (v: readonly number[]): [number, number] => [v[0]!, v[1]!];

/** `ints` of the node, checked to hold one value per spatial dim. */
function spatial(node: OnnxNode, name: string, fallback: readonly number[]): [number, number] {
  const v = node.attrs.ints(name, fallback);
  if (v.length !== 2) throw new Unsupported(`${name}=[${v.join(',')}]: only 2-D windows (4-D tensors) are supported`);
  return pair(v);
}

/** ONNX's SAME padding for one dim: total = max(0, (ceil(in/s) - 1) s + (k-1) d + 1 - in). */
function samePads(size: number, k: number, s: number, d: number, upper: boolean): [number, number] {
  const total = Math.max(0, (Math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size);
  const small = Math.floor(total / 2);
  return upper ? [small, total - small] : [total - small, small];
}

/**
 * The node's window over input `x` (N,C,H,W). With auto_pad SAME_* the pads depend on the input size when a
 * stride is above 1: the graph then holds pads for this size, noted via ctx.specialise when the probe
 * translation (another input size) would pad differently.
 */
export function readWindow(ctx: ImportContext, node: OnnxNode, x: Operand, kernel: readonly number[] | undefined): Window2d {
  const shape = ctx.shapeOf(x);
  if (shape.length !== 4) throw new Unsupported(`input of shape (${shape.join(',')}): only 2-D windows over (N,C,H,W) tensors are supported`);
  const k = kernel ? pair(kernel) : spatial(node, 'kernel_shape', []);
  const stride = spatial(node, 'strides', [1, 1]);
  const dilation = spatial(node, 'dilations', [1, 1]);
  const autoPad = node.attrs.string('auto_pad', 'NOTSET');
  let begin: [number, number];
  let end: [number, number];
  if (autoPad === 'NOTSET') {
    const pads = node.attrs.ints('pads', [0, 0, 0, 0]);
    if (pads.length !== 4) throw new Unsupported(`pads=[${pads.join(',')}]: expected 4 values for a 2-D window`);
    begin = [pads[0]!, pads[1]!];
    end = [pads[2]!, pads[3]!];
  } else if (autoPad === 'VALID') {
    begin = [0, 0];
    end = [0, 0];
  } else if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
    const upper = autoPad === 'SAME_UPPER';
    const at = (size: Shape) => [0, 1].map((i) => samePads(size[2 + i]!, k[i]!, stride[i]!, dilation[i]!, upper));
    const now = at(shape);
    begin = [now[0]![0], now[1]![0]];
    end = [now[0]![1], now[1]![1]];
    const other = ctx.probe(node.inputs[0]!)?.shape;
    if (other && JSON.stringify(at(other)) !== JSON.stringify(now)) ctx.specialise(`auto_pad=${autoPad} pads (${[...begin, ...end].join(',')}) hold for a ${shape[2]}x${shape[3]} input only`);
  } else {
    throw new Unsupported(`auto_pad=${autoPad}`);
  }
  if ([...begin, ...end].some((p) => p < 0)) throw new Unsupported(`negative pads [${[...begin, ...end].join(',')}]`);
  return { kernel: k, stride, dilation, begin, end };
}

export const symmetric = (w: Window2d) => w.begin[0] === w.end[0] && w.begin[1] === w.end[1];

/** x padded by (begin, end) on H and W with `value` (F.pad, PyTorch's list: left, right, top, bottom). */
export function padSpatial(ctx: ImportContext, x: Operand, begin: readonly number[], end: readonly number[], value: number, suffix = 'pad'): Operand {
  if (begin.every((p) => p === 0) && end.every((p) => p === 0)) return x;
  return ctx.op1('F.pad', [x], {
    params: [['pad', P.ints([begin[1]!, end[1]!, begin[0]!, end[0]!])], ['mode', P.string('constant')], ['value', P.float(value)]],
    suffix,
  });
}
