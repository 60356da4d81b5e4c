// ReduceMean / ReduceSum → torch.mean / torch.sum (the other reductions fold on constants only), and
// Softmax / LogSoftmax. Before opset 13 a softmax flattens its input to 2-D at `axis` and normalises all
// the dims from `axis` on together: on the last axis, or when the dims after `axis` are all 1 but one, that
// is a softmax along one dim; otherwise it is torch.flatten, a softmax on the last dim and a reshape back.
// Reductions take `axes` as an attribute before opset 18 (ReduceSum: 13), as an input after.

import { P } from '../../../../graph/param.ts';
import { numel, type Shape } from '../../../../tensor/shape.ts';
import { constant, type Converter } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { reduceTensor } from '../fold.ts';
import { reshapeTo } from './reshape.ts';

type Kind = 'sum' | 'mean' | 'prod' | 'max' | 'min';

function reduce(kind: Kind, axesInputFrom: number): Converter {
  return (ctx, node) => {
    const x = ctx.get(node.inputs[0]!);
    const axes = (node.opset < axesInputFrom ? node.attrs.ints('axes') : ctx.numbersInput(node, 1, 'the axes')) ?? [];
    const keepdims = node.attrs.int('keepdims', 1) === 1;
    const noop = node.attrs.int('noop_with_empty_axes', 0) === 1;
    const out = node.outputs[0]!;
    if (axes.length === 0 && noop) {
      ctx.set(out, x);
      return;
    }
    if (x.kind === 'const') {
      ctx.set(out, constant(reduceTensor(x.tensor, axes, keepdims, kind)));
      return;
    }
    if (kind !== 'mean' && kind !== 'sum') throw new Unsupported(`Reduce${kind[0]!.toUpperCase()}${kind.slice(1)} of a run-time tensor`);
    const params: Array<[string, ReturnType<typeof P.ints>]> = [['keepdim', P.bool(keepdims)]];
    if (axes.length) params.push(['dim', P.ints(axes)]);
    ctx.set(out, ctx.op1(kind === 'mean' ? 'torch.mean' : 'torch.sum', [x], { params, outputs: [out] }));
  };
}

function softmax(log: boolean): Converter {
  const type = log ? 'nn.LogSoftmax' : 'nn.Softmax';
  return (ctx, node) => {
    const x = ctx.get(node.inputs[0]!);
    const shape = ctx.shapeOf(x);
    const rank = shape.length;
    const out = node.outputs[0]!;
    const raw = node.attrs.int('axis', node.opset >= 13 ? -1 : 1);
    const axis = raw < 0 ? raw + rank : raw;
    if (axis < 0 || axis >= Math.max(rank, 1)) throw new Unsupported(`axis=${raw} for an input of rank ${rank}`);
    const along = (dim: number, input = x, name: string | undefined = out) =>
      ctx.op1(type, [input], { params: [['dim', P.int(dim)]], outputs: name ? [name] : 1 });
    if (node.opset >= 13 || axis === rank - 1) {
      ctx.set(out, along(axis));
      return;
    }
    // Flattening semantics: the dims from `axis` on are one. If all but one of them are 1 at every input
    // size, normalising along that one is the same thing.
    const probe = ctx.probe(node.inputs[0]!)?.shape;
    const trailing = (s: Shape) => s.slice(axis).map((d, i) => (d === 1 ? -1 : axis + i)).filter((i) => i >= 0);
    const now = trailing(shape);
    const other = probe ? trailing(probe) : now;
    if (now.length <= 1 && JSON.stringify(now) === JSON.stringify(other)) {
      ctx.set(out, along(now[0] ?? axis));
      return;
    }
    const flat = ctx.op1('torch.flatten', [x], { params: [['start_dim', P.int(axis)], ['end_dim', P.int(-1)]], suffix: 'flatten' });
    const y = along(-1, flat, undefined);
    const flat2 = probe ? [...probe.slice(0, axis), numel(probe.slice(axis))] : undefined;
    ctx.set(out, reshapeTo(ctx, y, shape, flat2, probe, out));
  };
}

export const REDUCTIONS: ReadonlyArray<[string, Converter]> = [
  ['ReduceMean', reduce('mean', 18)],
  ['ReduceSum', reduce('sum', 13)],
  ['ReduceProd', reduce('prod', 18)],
  ['ReduceMax', reduce('max', 18)],
  ['ReduceMin', reduce('min', 18)],
  ['Softmax', softmax(false)],
  ['LogSoftmax', softmax(true)],
];
