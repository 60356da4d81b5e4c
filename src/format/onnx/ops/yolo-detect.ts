// models.yolo.Detect as primitive ONNX ops, computing what src/ops/yolo-decode.ts computes. Per feature map
// i of shape (N, C, H, W), with na anchors and no = 5 + classes outputs per anchor:
//
//   Conv 1x1 (m.i.weight, m.i.bias)            (N, na*no, H, W)
//   Reshape (N, na, no, H, W) → Transpose (0,1,3,4,2) → Sigmoid          s: (N, na, H, W, no)
//   xy = (Slice(s, 0:2) * 2 + G) * stride      G (1, na, H, W, 2): the grid, minus 0.5 before YOLOv5 v6
//   wh = (Slice(s, 2:4) * 2)^2 * A             A (1, na, H, W, 2): the anchor grid, in pixels
//   Concat(xy, wh, Slice(s, 4:no)) on the last axis → Reshape (N, na*H*W, no)
// and the maps' results are concatenated on axis 1 in input order. G and A are written as initializers,
// chosen exactly as the reference chooses them: which stored constant is the grid is told by content, a map
// size without stored constants regenerates the grid and takes each anchor's size from position (0, 0),
// and levels follow the maps' sizes (largest map = level 0 = the smallest stride).

import { decodeTables, detectLayout, detectLevels } from '../../../ops/yolo-decode.ts';
import { attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';

export const yoloDetectExport: ExportFamily = {
  types: ['models.yolo.Detect'],
  export(ctx) {
    const { b, base, node, p } = ctx;
    const shapes = node.inputs.map((_, i) => ctx.inputShape(i));
    const layout = detectLayout(node, p, shapes.length) ?? ctx.fail('has no grid constants (@pnnx_k shaped (1,na,H,W,2)) to decode with');
    const na = layout.anchors;
    const levels = detectLevels(layout, shapes, p);
    const slice = (x: string, from: number, to: number) => b.slice(base, x, [from], [to], [4]);

    const maps = shapes.map((shape, i) => {
      const [n, , h, w] = shape as [number, number, number, number];
      const no = p.weightShape(`m.${i}.weight`)![0]! / na;
      // The reference's tables; the pre-v6 formula (2s - 0.5 + grid) becomes (2s + (grid - 0.5)).
      const t = decodeTables(levels[i]!.level, levels[i]!.stride, na, h, w, p);
      const stride = t.stride;
      const grid = t.legacy ? t.cells.map((c) => c - 0.5) : t.cells;
      const anchors = t.anchors;
      const bias = node.weights.has(`m.${i}.bias`) ? [ctx.weight(`m.${i}.bias`)] : [];
      const conv = b.op('Conv', [ctx.input(i), ctx.weight(`m.${i}.weight`), ...bias], { kernel_shape: attr.ints([1, 1]) }, `${base}.m.${i}`);
      const split = b.op('Reshape', [conv, b.i64(`${base}.m.${i}.shape5`, [n, na, no, h, w])], {}, `${base}.m.${i}`);
      const s = b.op('Sigmoid', [b.op('Transpose', [split], { perm: attr.ints([0, 1, 3, 4, 2]) }, `${base}.m.${i}`)], {}, `${base}.m.${i}`);
      const two = b.scalar(2);
      const cells = b.op('Add', [b.op('Mul', [slice(s, 0, 2), two], {}, base), b.f32(`${base}.grid${i}`, [1, na, h, w, 2], grid)], {}, base);
      const xy = b.op('Mul', [cells, b.scalar(stride)], {}, base);
      const wh2 = b.op('Mul', [slice(s, 2, 4), two], {}, base);
      const wh = b.op('Mul', [b.op('Mul', [wh2, wh2], {}, base), b.f32(`${base}.anchor_grid${i}`, [1, na, h, w, 2], anchors)], {}, base);
      const z = b.op('Concat', [xy, wh, slice(s, 4, no)], { axis: attr.int(4) }, base);
      return b.op('Reshape', [z, b.i64(`${base}.m.${i}.rows`, [n, na * h * w, no])], {}, base);
    });
    b.op('Concat', maps, { axis: attr.int(1) }, base, ctx.output());
  },
};
