// Cutting and joining: Tensor.slice → Slice (+ Squeeze for integer selects), torch.cat → Concat,
// torch.split / torch.chunk → Split with the piece sizes as an input (opset 13+).
// Slice bounds are resolved here as aten::slice does (negative from the end, clamped to [0, size], an end
// before the start gives an empty dim), so ONNX sees plain non-negative bounds.

import { normalizeAxis } from '../../../tensor/shape.ts';
import { attr } from '../builder.ts';
import type { ExportFamily } from '../context.ts';
import { parseSlices } from '../../../ops/slice.ts';

export const sliceExport: ExportFamily = {
  types: ['Tensor.slice'],
  export(ctx) {
    const { b, base } = ctx;
    const shape = ctx.inputShape(0);
    const starts: number[] = [];
    const ends: number[] = [];
    const axes: number[] = [];
    const steps: number[] = [];
    const selected: number[] = [];
    for (const s of parseSlices(ctx.node, ctx.p)) {
      const axis = normalizeAxis(s.dim, shape.length)!;
      const size = shape[axis]!;
      if (s.select !== undefined) {
        const index = s.select < 0 ? s.select + size : s.select;
        starts.push(index);
        ends.push(index + 1);
        steps.push(1);
        selected.push(axis);
      } else {
        const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + size : v, 0), size);
        const start = clamp(s.start);
        starts.push(start);
        ends.push(Math.max(clamp(s.end), start));
        steps.push(s.step);
      }
      axes.push(axis);
    }
    const sliced = b.slice(base, ctx.input(0), starts, ends, axes, steps, selected.length ? undefined : ctx.output());
    if (selected.length) b.op('Squeeze', [sliced, b.i64(`${base}.selected`, selected.sort((x, y) => x - y))], {}, base, ctx.output());
  },
};

export const catExport: ExportFamily = {
  types: ['torch.cat', 'torch.concat'],
  export(ctx) {
    const axis = normalizeAxis(ctx.p.int('dim', 0), ctx.inputShape(0).length)!;
    ctx.b.op('Concat', ctx.node.inputs.map((_, i) => ctx.input(i)), { axis: attr.int(axis) }, ctx.base, ctx.output());
  },
};

export const splitExport: ExportFamily = {
  types: ['torch.split', 'Tensor.split', 'torch.chunk', 'Tensor.chunk'],
  export(ctx) {
    const axis = normalizeAxis(ctx.p.int('dim', 0), ctx.inputShape(0).length)!;
    // The piece sizes are the inferred outputs' (chunk's and split's rules already applied).
    const sizes = ctx.node.outputs.map((_, i) => ctx.outputShape(i)[axis]!);
    ctx.b.ops('Split', [ctx.input(0), ctx.b.i64(`${ctx.base}.split`, sizes)], { axis: attr.int(axis) }, ctx.base, ctx.node.outputs.map((_, i) => ctx.output(i)));
  },
};
