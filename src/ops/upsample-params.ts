// nn.Upsample / F.interpolate / F.upsample params: a target size, or a scale factor whose output size is
// floor(in * scale) and which the bilinear source-coordinate formula uses as given (PyTorch's behaviour).

import type { Node } from '../graph/graph.ts';
import type { ShapeInfo } from './op.ts';
import { ParamReader } from './params.ts';

export type ResizeMode = 'nearest' | 'bilinear' | 'bicubic' | 'nearest-exact';

export interface ResizeParams {
  readonly mode: ResizeMode;
  readonly size: readonly [number, number] | undefined;
  readonly scale: readonly [number, number] | undefined;
  readonly alignCorners: boolean;
  /** recompute_scale_factor=True: source coordinates use in/out, not the given scale_factor. */
  readonly recomputeScale: boolean;
}

export function parseResizeParams(node: Node): ResizeParams {
  const p: ParamReader = new ParamReader(node);
  // nn.UpsamplingBilinear2d is F.interpolate(mode='bilinear', align_corners=True) and has neither param.
  const bilinearModule = node.type === 'nn.UpsamplingBilinear2d';
  const mode = p.string<ResizeMode>('mode', ['nearest', 'bilinear', 'bicubic', 'nearest-exact'], bilinearModule ? 'bilinear' : 'nearest');
  const size = p.has('size') ? (p.ints('size', 2) as [number, number]) : undefined;
  const scale = p.has('scale_factor') ? (p.floats('scale_factor', 2) as [number, number]) : undefined;
  if (!size && !scale) p.fail('needs size or scale_factor (both are None)');
  if (size && scale) p.fail('takes size or scale_factor, not both');
  if (size && size.some((d) => d < 1)) p.fail(`size=(${size.join(',')}) must be >= 1`);
  if (scale && scale.some((s) => !(s > 0))) p.fail(`scale_factor=(${scale.join(',')}) must be > 0`);
  const alignCorners = p.bool('align_corners', bilinearModule);
  if (alignCorners && (mode === 'nearest' || mode === 'nearest-exact')) p.fail(`align_corners=True only applies to linear modes, not mode=${mode}`);
  const recomputeScale = p.bool('recompute_scale_factor', false);
  return { mode, size, scale, alignCorners, recomputeScale };
}

/** Output (height, width) for an input's last two dims. */
export function resizeOutputSize(r: ResizeParams, h: number, w: number): [number, number] {
  if (r.size) return [r.size[0], r.size[1]];
  return [Math.floor(h * r.scale![0]), Math.floor(w * r.scale![1])];
}

export function inferResize(node: Node, r: ResizeParams, inputs: readonly ShapeInfo[]): ShapeInfo[] {
  const p: ParamReader = new ParamReader(node);
  p.expectInputs(inputs, 1);
  const x = inputs[0]!;
  p.expectRank(x, [4]);
  const [oh, ow] = resizeOutputSize(r, x.shape[2]!, x.shape[3]!);
  if (oh < 1 || ow < 1) p.fail(`output size ${oh}x${ow} from input ${x.shape[2]}x${x.shape[3]} is empty`);
  return [{ shape: [x.shape[0]!, x.shape[1]!, oh, ow], dtype: x.dtype }];
}
