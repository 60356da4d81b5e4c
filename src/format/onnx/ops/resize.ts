// nn.Upsample / F.interpolate / F.upsample → Resize, set up as PyTorch's own exporter does: `scales` when the
// node has a scale_factor that is used as given, `sizes` otherwise (a size, or recompute_scale_factor=True).
// Source-coordinate rules, PyTorch's (aten/src/ATen/native/UpSample.h) against ONNX's Resize:
//   nearest        floor(dst * in/out)             asymmetric + floor
//   nearest-exact  floor((dst + 0.5) * in/out)     half_pixel + round_prefer_ceil (= floor(x + 0.5))
//   bilinear       max((dst + 0.5) * in/out - 0.5, 0), or dst * (in-1)/(out-1) with align_corners
//                  half_pixel (onnxruntime clamps the negative coordinates of linear modes to 0, as
//                  PyTorch does) or align_corners
//   bicubic        the same coordinates unclamped, Keys' kernel with A = -0.75, edge taps clamped
//                  cubic_coeff_a = -0.75, exclude_outside = 0

import { parseResizeParams } from '../../../ops/upsample-params.ts';
import { attr, type Attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';

export const resizeExport: ExportFamily = {
  types: ['nn.Upsample', 'F.interpolate', 'F.upsample', 'nn.UpsamplingNearest2d', 'nn.UpsamplingBilinear2d'],
  export(ctx) {
    const { b, base } = ctx;
    const r = parseResizeParams(ctx.node);
    let attrs: Record<string, Attr>;
    const linearTransform = attr.string(r.alignCorners ? 'align_corners' : 'half_pixel');
    switch (r.mode) {
      case 'nearest':
        attrs = { mode: attr.string('nearest'), coordinate_transformation_mode: attr.string('asymmetric'), nearest_mode: attr.string('floor') };
        break;
      case 'nearest-exact':
        attrs = { mode: attr.string('nearest'), coordinate_transformation_mode: attr.string('half_pixel'), nearest_mode: attr.string('round_prefer_ceil') };
        break;
      case 'bilinear':
        attrs = { mode: attr.string('linear'), coordinate_transformation_mode: linearTransform };
        break;
      case 'bicubic':
        attrs = { mode: attr.string('cubic'), coordinate_transformation_mode: linearTransform, cubic_coeff_a: attr.float(-0.75), exclude_outside: attr.int(0) };
        break;
    }
    const useScales = r.scale !== undefined && !r.recomputeScale;
    const inputs = useScales
      ? [ctx.input(0), '', b.f32(`${base}.scales`, [4], [1, 1, r.scale![0], r.scale![1]])]
      : [ctx.input(0), '', '', b.i64(`${base}.sizes`, ctx.outputShape())];
    b.op('Resize', inputs, attrs, base, ctx.output());
  },
};
