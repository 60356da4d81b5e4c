// Convolution params as PyTorch's nn.Conv2d / nn.ConvTranspose2d take them, parsed once per node, and
// the output-size arithmetic both the shape rule and the kernels use.

import type { Node } from '../graph/graph.ts';
import { formatShape, type Shape } from '../tensor/shape.ts';
import type { ShapeInfo } from './op.ts';
import { ParamReader } from './params.ts';
import { maxBorder } from './border.ts';

export type PaddingMode = 'zeros' | 'reflect' | 'replicate' | 'circular';

/** Marks a Conv2d whose second input is a residual added to its output (set by the residual-fusion pass). */
export const RESIDUAL_PARAM = 'flowinfer.residual';

export interface ConvParams {
  readonly inChannels: number;
  readonly outChannels: number;
  readonly kernel: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly dilation: readonly [number, number];
  /** Padding before and after, per spatial dim: [top, left] and [bottom, right]. */
  readonly padBegin: readonly [number, number];
  readonly padEnd: readonly [number, number];
  readonly paddingMode: PaddingMode;
  readonly groups: number;
  readonly hasBias: boolean;
  /** ConvTranspose2d only. */
  readonly outputPadding: readonly [number, number];
  /**
   * Conv2d only: a residual operand fused in by the optimiser (`flowinfer.residual=True`, the node's second
   * input), added after the bias and before any fused activation.
   */
  readonly residual: boolean;
}

const pair = (v: number[]): [number, number] => [v[0]!, v[1]!];

export function parseConvParams(node: Node, transposed: boolean): ConvParams {
  const p: ParamReader = new ParamReader(node);
  const inChannels = p.int('in_channels');
  const outChannels = p.int('out_channels');
  const kernel = pair(p.ints('kernel_size', 2));
  const stride = pair(p.ints('stride', 2, [1, 1]));
  const dilation = pair(p.ints('dilation', 2, [1, 1]));
  const groups = p.int('groups', 1);
  const hasBias = p.bool('bias', node.weights.has('bias'));
  const paddingMode = transposed ? 'zeros' : p.string<PaddingMode>('padding_mode', ['zeros', 'reflect', 'replicate', 'circular'], 'zeros');
  const outputPadding = transposed ? pair(p.ints('output_padding', 2, [0, 0])) : ([0, 0] as [number, number]);

  for (const [name, v, min] of [['kernel_size', kernel, 1], ['stride', stride, 1], ['dilation', dilation, 1]] as const) {
    if (v[0] < min || v[1] < min) p.fail(`param ${name}=(${v.join(',')}): expected values >= ${min}`);
  }
  if (groups < 1 || inChannels % groups !== 0 || outChannels % groups !== 0) {
    p.fail(`groups=${groups} must divide in_channels=${inChannels} and out_channels=${outChannels}`);
  }

  let padBegin: [number, number];
  let padEnd: [number, number];
  const rawPadding = p.raw('padding');
  if (!transposed && rawPadding?.kind === 'string') {
    const mode = p.string('padding', ['same', 'valid']);
    if (mode === 'valid') {
      padBegin = [0, 0];
      padEnd = [0, 0];
    } else {
      if (stride[0] !== 1 || stride[1] !== 1) p.fail(`padding=same needs stride 1 (PyTorch's rule), got stride=(${stride.join(',')})`);
      // PyTorch puts the odd extra pixel of 'same' padding after the input.
      const total = [dilation[0] * (kernel[0] - 1), dilation[1] * (kernel[1] - 1)];
      padBegin = [Math.floor(total[0]! / 2), Math.floor(total[1]! / 2)];
      padEnd = [total[0]! - padBegin[0], total[1]! - padBegin[1]];
    }
  } else {
    padBegin = pair(p.ints('padding', 2, [0, 0]));
    padEnd = [padBegin[0], padBegin[1]];
  }
  if (padBegin.some((x) => x < 0)) p.fail(`param padding=(${padBegin.join(',')}): expected values >= 0`);
  if (transposed && (outputPadding[0] >= Math.max(stride[0], dilation[0]) || outputPadding[1] >= Math.max(stride[1], dilation[1]))) {
    p.fail(`output_padding=(${outputPadding.join(',')}) must be smaller than stride or dilation (PyTorch's rule)`);
  }

  // Weight layout: Conv2d (out, in/groups, kh, kw); ConvTranspose2d (in, out/groups, kh, kw).
  const weightShape = transposed
    ? [inChannels, outChannels / groups, kernel[0], kernel[1]]
    : [outChannels, inChannels / groups, kernel[0], kernel[1]];
  const declared = p.weightShape('weight');
  if (!declared) p.fail(`weight @weight is missing: expected shape ${formatShape(weightShape)}`);
  if (declared.length !== 4 || declared.some((d, i) => d !== weightShape[i])) {
    p.fail(`weight @weight=${formatShape(declared)}: expected ${formatShape(weightShape)} from the params`);
  }
  if (hasBias) {
    const b = p.weightShape('bias');
    if (!b || b.length !== 1 || b[0] !== outChannels) {
      p.fail(`bias=True but weight @bias is ${b ? formatShape(b) : 'missing'}: expected (${outChannels})`);
    }
  }
  const residual = !transposed && p.bool(RESIDUAL_PARAM, false);
  return { inChannels, outChannels, kernel, stride, dilation, padBegin, padEnd, paddingMode, groups, hasBias, outputPadding, residual };
}

/** Output spatial size of a convolution along one dim (PyTorch's formula). */
export function convOutputSize(size: number, k: number, s: number, d: number, pb: number, pe: number): number {
  return Math.floor((size + pb + pe - d * (k - 1) - 1) / s) + 1;
}

/** Output spatial size of a transposed convolution along one dim. */
export function convTransposeOutputSize(size: number, k: number, s: number, d: number, p: number, op: number): number {
  return (size - 1) * s - 2 * p + d * (k - 1) + op + 1;
}

/** Shape rule shared by Conv2d and ConvTranspose2d: (N,C,H,W) or unbatched (C,H,W). */
export function inferConv(node: Node, c: ConvParams, transposed: boolean, inputs: readonly ShapeInfo[]): ShapeInfo[] {
  const p: ParamReader = new ParamReader(node);
  p.expectInputs(inputs, c.residual ? 2 : 1);
  const x = inputs[0]!;
  p.expectRank(x, [3, 4]);
  const [ch, h, w] = x.shape.slice(-3) as [number, number, number];
  if (ch !== c.inChannels) p.fail(`input ${formatShape(x.shape)} has ${ch} channels, expected in_channels=${c.inChannels}`);
  if (c.paddingMode !== 'zeros') {
    const mode = c.paddingMode;
    const fits = [h, w].every((size, i) => Math.max(c.padBegin[i]!, c.padEnd[i]!) <= maxBorder(size, mode));
    if (!fits) p.fail(`padding=(${c.padBegin.join(',')}) with padding_mode=${mode} is too large for input ${formatShape(x.shape)} (PyTorch's pad rule)`);
  }
  let oh: number, ow: number;
  if (transposed) {
    oh = convTransposeOutputSize(h, c.kernel[0], c.stride[0], c.dilation[0], c.padBegin[0], c.outputPadding[0]);
    ow = convTransposeOutputSize(w, c.kernel[1], c.stride[1], c.dilation[1], c.padBegin[1], c.outputPadding[1]);
  } else {
    oh = convOutputSize(h, c.kernel[0], c.stride[0], c.dilation[0], c.padBegin[0], c.padEnd[0]);
    ow = convOutputSize(w, c.kernel[1], c.stride[1], c.dilation[1], c.padBegin[1], c.padEnd[1]);
  }
  if (oh < 1 || ow < 1) {
    p.fail(`input ${formatShape(x.shape)} is too small for kernel (${c.kernel.join(',')}) with dilation (${c.dilation.join(',')}) and padding (${c.padBegin.join(',')}): output would be ${oh}x${ow}`);
  }
  const shape: Shape = [...x.shape.slice(0, -3), c.outChannels, oh, ow];
  const r = inputs[1];
  if (r && (r.shape.length !== shape.length || r.shape.some((d, i) => d !== shape[i]))) {
    p.fail(`residual input ${formatShape(r.shape)} must have the output's shape ${formatShape(shape)}`);
  }
  return [{ shape, dtype: x.dtype }];
}

/** Multiply-accumulates: every output (transposed: every input) element sums in/groups x kh x kw products. */
export function convMacs(c: ConvParams, transposed: boolean, inputs: readonly ShapeInfo[], outputs: readonly ShapeInfo[]): number {
  const perElement = (transposed ? c.outChannels : c.inChannels) / c.groups * c.kernel[0] * c.kernel[1];
  const counted = transposed ? inputs[0]!.shape : outputs[0]!.shape;
  return counted.reduce((a, b) => a * b, 1) * perElement;
}
