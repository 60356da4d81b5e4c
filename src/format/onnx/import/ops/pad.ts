// Pad → F.pad. ONNX lists pads as [x1_begin, x2_begin, ..., x1_end, x2_end, ...] over the input's dims (or
// over `axes`, opset 18); PyTorch's list runs from the last dim backwards in (before, after) pairs. Modes:
// constant, reflect (no edge repeat in either), edge → replicate, wrap → circular. Before opset 11 the pads
// and the value are attributes.

import { P } from '../../../../graph/param.ts';
import type { Converter } from '../context.ts';
import { Unsupported } from '../errors.ts';

const MODES: Readonly<Record<string, string>> = { constant: 'constant', reflect: 'reflect', edge: 'replicate', wrap: 'circular' };

export const pad: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const rank = ctx.shapeOf(x).length;
  const legacy = node.opset < 11;
  const list = legacy ? node.attrs.ints('pads') : ctx.numbersInput(node, 1, 'the pads');
  const value = legacy ? node.attrs.float('value', 0) : ctx.numbersInput(node, 2, 'the constant value')?.[0] ?? 0;
  const axes = (legacy ? undefined : ctx.numbersInput(node, 3, 'the axes'))?.map((a) => (a < 0 ? a + rank : a)) ?? Array.from({ length: rank }, (_, i) => i);
  const modeName = node.attrs.string('mode', 'constant');
  const mode = MODES[modeName];
  if (!mode) throw new Unsupported(`mode=${modeName}`);
  if (!list || list.length !== 2 * axes.length) throw new Unsupported(`pads must hold a begin and an end per axis (${axes.length} axes)`);
  const perDim = Array.from({ length: rank }, (): [number, number] => [0, 0]);
  axes.forEach((a, i) => (perDim[a] = [list[i]!, list[i + axes.length]!]));
  const outermost = perDim.findIndex(([b, e]) => b !== 0 || e !== 0);
  const out = node.outputs[0]!;
  if (outermost < 0) {
    ctx.set(out, x);
    return;
  }
  const torchList = perDim.slice(outermost).reverse().flatMap(([b, e]) => [b, e]);
  const params: Array<[string, ReturnType<typeof P.ints>]> = [['pad', P.ints(torchList)], ['mode', P.string(mode)]];
  if (mode === 'constant') params.push(['value', P.float(value)]);
  ctx.set(out, ctx.op1('F.pad', [x], { params, outputs: [out] }));
};
