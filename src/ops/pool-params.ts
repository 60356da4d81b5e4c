// Pooling params (nn.MaxPool2d, nn.AvgPool2d and their F. forms) and PyTorch's output-size rule,
// including ceil_mode's "the last window must start inside the input or its left padding".

import type { Node } from '../graph/graph.ts';
import { formatShape } from '../tensor/shape.ts';
import type { ShapeInfo } from './op.ts';
import { ParamReader } from './params.ts';

export interface PoolParams {
  readonly kind: 'max' | 'avg';
  readonly kernel: readonly [number, number];
  readonly stride: readonly [number, number];
  readonly padding: readonly [number, number];
  readonly dilation: readonly [number, number];
  readonly ceilMode: boolean;
  /** AvgPool: whether padded zeros count in the divisor. */
  readonly countIncludePad: boolean;
  /** AvgPool: a fixed divisor instead of the window size. */
  readonly divisorOverride: number | undefined;
}

const pair = (v: number[]): [number, number] => [v[0]!, v[1]!];

export function parsePoolParams(node: Node, kind: 'max' | 'avg'): PoolParams {
  const p: ParamReader = new ParamReader(node);
  const kernel = pair(p.ints('kernel_size', 2));
  // PyTorch: stride defaults to kernel_size (None or an empty tuple mean the same).
  const stride = pair(p.has('stride') ? p.ints('stride', 2) : kernel);
  const padding = pair(p.ints('padding', 2, [0, 0]));
  const dilation = pair(kind === 'max' ? p.ints('dilation', 2, [1, 1]) : [1, 1]);
  const ceilMode = p.bool('ceil_mode', false);
  const countIncludePad = kind === 'avg' ? p.bool('count_include_pad', true) : false;
  const divisorOverride = kind === 'avg' && p.has('divisor_override') ? p.int('divisor_override') : undefined;
  if (kind === 'max' && p.bool('return_indices', false)) p.fail('return_indices=True is not supported (the indices output is training-only)');
  if (kernel.some((k) => k < 1) || stride.some((s) => s < 1) || dilation.some((d) => d < 1)) {
    p.fail(`kernel_size=(${kernel.join(',')}), stride=(${stride.join(',')}) and dilation=(${dilation.join(',')}) must be >= 1`);
  }
  for (let i = 0; i < 2; i++) {
    if (padding[i]! < 0 || padding[i]! > Math.floor(kernel[i]! / 2)) {
      p.fail(`padding=(${padding.join(',')}) must be between 0 and half the kernel size (${kernel.join(',')}) (PyTorch's rule)`);
    }
  }
  if (divisorOverride !== undefined && divisorOverride === 0) p.fail('divisor_override must not be 0');
  return { kind, kernel, stride, padding, dilation, ceilMode, countIncludePad, divisorOverride };
}

/** PyTorch's pooling output size along one dim. */
export function poolOutputSize(size: number, k: number, s: number, pad: number, d: number, ceil: boolean): number {
  const span = size + 2 * pad - d * (k - 1) - 1;
  let out = (ceil ? Math.ceil(span / s) : Math.floor(span / s)) + 1;
  if (ceil && (out - 1) * s >= size + pad) out--;
  return out;
}

export function inferPool(node: Node, c: PoolParams, inputs: readonly ShapeInfo[]): ShapeInfo[] {
  const p: ParamReader = new ParamReader(node);
  p.expectInputs(inputs, 1);
  const x = inputs[0]!;
  p.expectRank(x, [3, 4]);
  const [h, w] = x.shape.slice(-2) as [number, number];
  const oh = poolOutputSize(h, c.kernel[0], c.stride[0], c.padding[0], c.dilation[0], c.ceilMode);
  const ow = poolOutputSize(w, c.kernel[1], c.stride[1], c.padding[1], c.dilation[1], c.ceilMode);
  if (oh < 1 || ow < 1) p.fail(`input ${formatShape(x.shape)} is too small for kernel (${c.kernel.join(',')}): output would be ${oh}x${ow}`);
  return [{ shape: [...x.shape.slice(0, -2), oh, ow], dtype: x.dtype }];
}
