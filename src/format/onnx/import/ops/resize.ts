// Resize and Upsample → nn.Upsample, where PyTorch's coordinate rules equal ONNX's
// (see src/format/onnx/ops/resize.ts for the same table read the other way):
//   nearest  asymmetric + floor (Upsample, Resize-10, and Resize-11+ when asked)  → mode nearest
//            half_pixel + round_prefer_ceil                                       → mode nearest-exact
//            half_pixel or pytorch_half_pixel + round_prefer_* at integer scales  → mode nearest (same pixels)
//   linear   half_pixel / pytorch_half_pixel → bilinear; align_corners → bilinear align_corners
//   cubic    the same, with cubic_coeff_a = -0.75 and exclude_outside = 0 (PyTorch's kernel)
// Scales become scale_factor (used as given, as ONNX uses them); sizes that keep a fixed ratio to the input
// at every size become a scale factor too, other sizes are fixed (noted as specialised).

import { P, type Param } from '../../../../graph/param.ts';
import type { Shape } from '../../../../tensor/shape.ts';
import type { Converter, ImportContext, OnnxNode } from '../context.ts';
import { Unsupported } from '../errors.ts';

type Mode = 'nearest' | 'nearest-exact' | 'bilinear' | 'bicubic';

function modeOf(node: OnnxNode, scales: readonly number[] | undefined): { mode: Mode; alignCorners: boolean } {
  const { attrs } = node;
  const onnxMode = attrs.string('mode', 'nearest');
  if (node.opType === 'Upsample' || node.opset < 11) {
    if (onnxMode !== 'nearest') throw new Unsupported(`mode=${onnxMode} with asymmetric coordinates has no PyTorch equivalent (only nearest does)`);
    return { mode: 'nearest', alignCorners: false };
  }
  const transform = attrs.string('coordinate_transformation_mode', 'half_pixel');
  const nearestMode = attrs.string('nearest_mode', 'round_prefer_floor');
  const cubicA = attrs.float('cubic_coeff_a', -0.75);
  const excludeOutside = attrs.int('exclude_outside', 0);
  if (attrs.int('antialias', 0) !== 0) throw new Unsupported('antialias=1');
  attrs.ignore('extrapolation_value'); // used by tf_crop_and_resize only, refused below
  const halfPixel = transform === 'half_pixel' || transform === 'pytorch_half_pixel';
  if (onnxMode === 'nearest') {
    if (transform === 'asymmetric' && nearestMode === 'floor') return { mode: 'nearest', alignCorners: false };
    if (halfPixel && nearestMode === 'round_prefer_ceil') return { mode: 'nearest-exact', alignCorners: false };
    const integral = scales?.every((s) => Number.isInteger(s) && s >= 1);
    if (halfPixel && nearestMode.startsWith('round_prefer') && integral) return { mode: 'nearest', alignCorners: false };
    throw new Unsupported(`nearest with coordinate_transformation_mode=${transform}, nearest_mode=${nearestMode} has no PyTorch equivalent at these scales`);
  }
  if (onnxMode !== 'linear' && onnxMode !== 'cubic') throw new Unsupported(`mode=${onnxMode}`);
  if (onnxMode === 'cubic' && (Math.abs(cubicA + 0.75) > 1e-6 || excludeOutside !== 0)) {
    throw new Unsupported(`cubic_coeff_a=${cubicA}, exclude_outside=${excludeOutside}: PyTorch's bicubic is -0.75 without exclusion`);
  }
  const mode = onnxMode === 'linear' ? 'bilinear' : 'bicubic';
  if (halfPixel) return { mode, alignCorners: false };
  if (transform === 'align_corners') return { mode, alignCorners: true };
  throw new Unsupported(`${onnxMode} with coordinate_transformation_mode=${transform} has no PyTorch equivalent`);
}

/** Scale or size of H and W; N and C must keep their size. */
function target(ctx: ImportContext, node: OnnxNode, shape: Shape): { scales?: number[]; sizes?: number[] } {
  const fromAttr = node.opType === 'Upsample' && node.opset < 9;
  const scaleInput = node.opType === 'Upsample' || node.opset < 11 ? 1 : 2;
  const scales = fromAttr ? node.attrs.floats('scales') : ctx.numbersInput(node, scaleInput, 'the scales');
  const sizes = node.opType === 'Resize' && node.opset >= 11 ? ctx.numbersInput(node, 3, 'the sizes') : undefined;
  if (node.opset >= 18 && node.attrs.ints('axes')) throw new Unsupported('attribute axes');
  if (node.opset >= 18) node.attrs.ignore('keep_aspect_ratio_policy');
  if (scales && scales.length > 0) {
    if (scales.length !== 4 || scales[0] !== 1 || scales[1] !== 1) throw new Unsupported(`scales=[${scales.join(',')}]: only H and W of a 4-D tensor can be resized`);
    return { scales: scales.slice(2) };
  }
  if (sizes && sizes.length > 0) {
    if (sizes.length !== 4 || sizes[0] !== shape[0] || sizes[1] !== shape[1]) throw new Unsupported(`sizes=[${sizes.join(',')}]: only H and W of a 4-D tensor can be resized`);
    return { sizes: sizes.slice(2) };
  }
  throw new Unsupported('neither scales nor sizes are given');
}

export const resize: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  if (shape.length !== 4) throw new Unsupported(`input of shape (${shape.join(',')}): only (N,C,H,W) tensors are resized`);
  const t = target(ctx, node, shape);
  const { mode, alignCorners } = modeOf(node, t.scales ?? t.sizes?.map((s, i) => s / shape[2 + i]!));
  let size: Param = P.null();
  let scale: Param = P.null();
  if (t.scales) scale = P.floats(t.scales);
  else {
    const ratio = t.sizes!.map((s, i) => s / shape[2 + i]!);
    const probe = ctx.probe(node.inputs[0]!)?.shape;
    const probeSizes = ctx.probe(node.inputs[3]!)?.values?.slice(2);
    const steady = probe && probeSizes ? ratio.every((r, i) => probeSizes[i]! / probe[2 + i]! === r) : false;
    const dynamic = probe && (probe[2] !== shape[2] || probe[3] !== shape[3]);
    if (dynamic && steady && ratio.every((r) => Number.isInteger(r))) scale = P.floats(ratio);
    else {
      if (dynamic) ctx.specialise(`resize to ${t.sizes!.join('x')} holds for this input size only`);
      size = P.ints(t.sizes!);
    }
  }
  const params: Array<[string, Param]> = [['mode', P.string(mode)], ['size', size], ['scale_factor', scale]];
  if (mode === 'bilinear' || mode === 'bicubic') params.push(['align_corners', P.bool(alignCorners)]);
  ctx.set(node.outputs[0]!, ctx.op1('nn.Upsample', [x], { params, outputs: [node.outputs[0]!] }));
};
