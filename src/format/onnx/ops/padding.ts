// Padding as ONNX writes it, shared by F.pad / nn.*Pad*d and by convolutions with padding_mode other than
// zeros (PyTorch pads first, then convolves with no padding):
//   constant, reflect, replicate  → Pad (mode constant / reflect / edge); reflect repeats no edge in both
//   circular                      → per padded dim, Concat(x[-before:], x, x[:after]) (Pad's wrap is opset 19)
//   negative constant pads        → a Slice that crops first (PyTorch's F.pad crops with them)

import type { BorderMode } from '../../../ops/border.ts';
import type { Shape } from '../../../tensor/shape.ts';
import type { OnnxGraphBuilder } from '../builder.ts';
import { attr } from '../builder.ts';

const PAD_MODE: Readonly<Record<Exclude<BorderMode, 'circular'>, string>> = { constant: 'constant', reflect: 'reflect', replicate: 'edge' };

/**
 * `x` of `shape` padded by pads[k] = [before, after] per dim (all dims listed); the result is named `out`
 * if given. `value` fills constant padding.
 */
export function emitPad(
  b: OnnxGraphBuilder, x: string, shape: Shape, pads: ReadonlyArray<readonly [number, number]>, mode: BorderMode, value: number, base: string, out?: string,
): string {
  let y = x;
  let size = [...shape];
  const crops = pads.map(([before, after]) => [Math.max(0, -before), Math.max(0, -after)] as const);
  if (crops.some(([s, e]) => s > 0 || e > 0)) {
    const axes = crops.flatMap(([s, e], k) => (s > 0 || e > 0 ? [k] : []));
    y = b.slice(`${base}.crop`, y, axes.map((k) => crops[k]![0]), axes.map((k) => size[k]! - crops[k]![1]), axes);
    size = size.map((d, k) => d - crops[k]![0] - crops[k]![1]);
  }
  const grow = pads.map(([before, after]) => [Math.max(0, before), Math.max(0, after)] as const);
  const padded = grow.some(([s, e]) => s > 0 || e > 0);
  if (!padded) return out === undefined ? y : b.op('Identity', [y], {}, base, out);
  if (mode === 'circular') {
    const last = grow.reduce((at, [s, e], k) => (s > 0 || e > 0 ? k : at), -1);
    grow.forEach(([before, after], k) => {
      if (before === 0 && after === 0) return;
      const n = size[k]!;
      const part = (start: number, end: number) => b.slice(`${base}.wrap`, y, [start], [end], [k]);
      const pieces = [...(before > 0 ? [part(n - before, n)] : []), y, ...(after > 0 ? [part(0, after)] : [])];
      y = b.op('Concat', pieces, { axis: attr.int(k) }, base, k === last ? out : undefined);
      size[k] = n + before + after;
    });
    return y;
  }
  const list = b.i64(`${base}.pads`, [...grow.map(([s]) => s), ...grow.map(([, e]) => e)]);
  const inputs = mode === 'constant' ? [y, list, b.scalar(value)] : [y, list];
  return b.op('Pad', inputs, { mode: attr.string(PAD_MODE[mode]) }, base, out);
}
