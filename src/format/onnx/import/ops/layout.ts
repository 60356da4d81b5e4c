// Ops that move elements: Transpose → Tensor.permute, Concat → torch.cat, Split → torch.split / torch.chunk,
// Slice → Tensor.slice (vector form), Gather of one index → a Tensor.slice select, Squeeze / Unsqueeze →
// torch.squeeze / torch.unsqueeze, Tile → Tensor.repeat, DepthToSpace → nn.PixelShuffle (CRD) or
// onnx.DepthToSpace (DCR). On constants they fold at load (shape arithmetic goes through here).
// Before opset 10/13 Slice, Split, Squeeze and Unsqueeze take their axes and bounds as attributes.

import { P } from '../../../../graph/param.ts';
import { normalizeAxis } from '../../../../tensor/shape.ts';
import { Tensor } from '../../../../tensor/tensor.ts';
import { constant, type Converter, type ImportContext, type OnnxNode, type Operand } from '../context.ts';
import { Unsupported } from '../errors.ts';
import { concatTensors, expandTensor, gatherTensor } from '../fold.ts';
import { tensorNumbers } from '../tensor.ts';

/** Tensor.slice's "to the end" and the int32 range its params hold. */
const END = 2147483647;
const clampInt = (v: number) => Math.max(-END, Math.min(END, v));

function axisOf(raw: number, rank: number): number {
  const a = normalizeAxis(raw, rank);
  if (a === undefined) throw new Unsupported(`axis ${raw} is out of range for rank ${rank}`);
  return a;
}

/** Axes from the attribute (before `inputFrom`) or from input 1 (from opset `inputFrom` on). */
function axesOf(ctx: ImportContext, node: OnnxNode, inputFrom: number): number[] | undefined {
  return node.opset < inputFrom ? node.attrs.ints('axes') : ctx.numbersInput(node, 1, 'the axes');
}

export const transpose: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const rank = ctx.shapeOf(x).length;
  const perm = node.attrs.ints('perm') ?? Array.from({ length: rank }, (_, i) => rank - 1 - i);
  ctx.set(node.outputs[0]!, ctx.op1('Tensor.permute', [x], { params: [['dims', P.ints(perm)]], outputs: [node.outputs[0]!] }));
};

export const concat: Converter = (ctx, node) => {
  const inputs = node.inputs.filter((n) => n !== '').map((n) => ctx.get(n));
  const axis = node.attrs.int('axis');
  if (axis === undefined) throw new Unsupported('attribute axis is missing');
  // Empty shape pieces (a 0-length 1-D constant) add nothing.
  const parts = inputs.filter((o) => !(o.kind === 'const' && o.tensor.size === 0 && inputs.length > 1));
  if (parts.every((o) => o.kind === 'const')) {
    ctx.set(node.outputs[0]!, constant(concatTensors(parts.map((o) => (o as { tensor: Tensor }).tensor), axis)));
    return;
  }
  ctx.set(node.outputs[0]!, ctx.op1('torch.cat', parts, { params: [['dim', P.int(axis)]], outputs: [node.outputs[0]!] }));
};

export const split: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  const axis = axisOf(node.attrs.int('axis', 0), shape.length);
  const sizes = node.opset < 13 ? node.attrs.ints('split') : ctx.numbersInput(node, 1, 'the split sizes');
  if (node.opset >= 18) node.attrs.int('num_outputs');
  const outputs = node.outputs;
  if (sizes && sizes.length !== outputs.length) throw new Unsupported(`split=[${sizes.join(',')}] gives ${sizes.length} pieces for ${outputs.length} outputs`);
  const names = outputs.map((o, i) => o || `${node.name}.unused${i}`);
  const results = sizes
    ? ctx.op('torch.split', [x], { params: [['split_size_or_sections', P.ints(sizes)], ['dim', P.int(axis)]], outputs: names })
    : ctx.op('torch.chunk', [x], { params: [['chunks', P.int(outputs.length)], ['dim', P.int(axis)]], outputs: names });
  results.forEach((r, i) => outputs[i] && ctx.set(outputs[i]!, r));
};

/** Slice bounds for one axis: fixed values, or "to the end" when they follow the input size. */
function sliceBound(ctx: ImportContext, node: OnnxNode, input: number, k: number, value: number, sizeNow: number, sizeProbe: number | undefined): number {
  const probed = node.opset >= 10 ? ctx.probe(node.inputs[input]!)?.values?.[k] : value;
  if (probed === undefined || probed === value || sizeProbe === undefined) return clampInt(value);
  if (value >= sizeNow && probed >= sizeProbe) return END;
  ctx.specialise(`slice bound ${value} holds for this input size only`);
  return clampInt(value);
}

export const slice: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.shapeOf(x);
  const legacy = node.opset < 10;
  const starts = legacy ? node.attrs.ints('starts') : ctx.numbersInput(node, 1, 'the starts');
  const ends = legacy ? node.attrs.ints('ends') : ctx.numbersInput(node, 2, 'the ends');
  if (!starts || !ends || starts.length !== ends.length) throw new Unsupported('starts and ends must be given, one per axis');
  const axes = (legacy ? node.attrs.ints('axes') : ctx.numbersInput(node, 3, 'the axes')) ?? starts.map((_, i) => i);
  const steps = (legacy ? undefined : ctx.numbersInput(node, 4, 'the steps')) ?? starts.map(() => 1);
  if (steps.some((s) => s < 1)) throw new Unsupported(`steps=[${steps.join(',')}]: only positive steps are supported`);
  const dims = axes.map((a) => axisOf(a, shape.length));
  const probeShape = ctx.probe(node.inputs[0]!)?.shape;
  const s = starts.map((v, k) => sliceBound(ctx, node, 1, k, v, shape[dims[k]!]!, probeShape?.[dims[k]!]));
  const e = ends.map((v, k) => sliceBound(ctx, node, 2, k, v, shape[dims[k]!]!, probeShape?.[dims[k]!]));
  ctx.set(node.outputs[0]!, ctx.op1('Tensor.slice', [x], {
    params: [['dims', P.ints(dims)], ['starts', P.ints(s)], ['ends', P.ints(e)], ['steps', P.ints(steps)]],
    outputs: [node.outputs[0]!],
  }));
};

export const gather: Converter = (ctx, node) => {
  const data = ctx.get(node.inputs[0]!);
  const indices = ctx.constantInput(node, 1, 'the indices')!;
  const shape = ctx.shapeOf(data);
  const axis = axisOf(node.attrs.int('axis', 0), shape.length);
  if (data.kind === 'const') {
    ctx.set(node.outputs[0]!, constant(gatherTensor(data.tensor, indices, axis)));
    return;
  }
  if (indices.size !== 1 || indices.shape.length > 1) throw new Unsupported(`indices of shape (${indices.shape.join(',')}) on a run-time tensor: only one index is supported`);
  const index = tensorNumbers(indices)[0]!;
  // A 0-d index drops the axis (a select); a (1) index keeps it with size 1 (a slice).
  const params = indices.shape.length === 0
    ? [['dims', P.ints([axis])], ['selects', P.ints([index])]] as const
    : [['dims', P.ints([axis])], ['starts', P.ints([index])], ['ends', P.ints([index === -1 ? END : index + 1])], ['steps', P.ints([1])]] as const;
  ctx.set(node.outputs[0]!, ctx.op1('Tensor.slice', [data], { params: params.map(([k, v]) => [k, v]), outputs: [node.outputs[0]!] }));
};

export const squeeze: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const axes = axesOf(ctx, node, 13);
  const params: Array<[string, ReturnType<typeof P.ints>]> = axes && axes.length ? [['dim', P.ints(axes)]] : [];
  ctx.set(node.outputs[0]!, ctx.op1('torch.squeeze', [x], { params, outputs: [node.outputs[0]!] }));
};

export const unsqueeze: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const axes = axesOf(ctx, node, 13);
  if (!axes?.length) throw new Unsupported('axes are missing');
  const shape = ctx.shapeOf(x);
  const rank = shape.length + axes.length;
  const sorted = axes.map((a) => axisOf(a, rank)).sort((a, b) => a - b);
  if (x.kind === 'const') {
    const out: number[] = [];
    let next = 0;
    for (let k = 0; k < rank; k++) out.push(sorted.includes(k) ? 1 : shape[next++]!);
    ctx.set(node.outputs[0]!, constant(new Tensor(x.tensor.dtype, out, x.tensor.data)));
    return;
  }
  // Inserting at ascending final positions one at a time puts every new dim where it belongs.
  let y: Operand = x;
  sorted.forEach((a, i) => {
    const last = i === sorted.length - 1;
    y = ctx.op1('torch.unsqueeze', [y], { params: [['dim', P.int(a)]], outputs: last ? [node.outputs[0]!] : 1, suffix: last ? undefined : `unsqueeze${i}` });
  });
  ctx.set(node.outputs[0]!, y);
};

export const tile: Converter = (ctx, node) => {
  const repeats = ctx.numbersInput(node, 1, 'the repeats')!;
  const x = ctx.get(node.inputs[0]!);
  if (repeats.length !== ctx.shapeOf(x).length) throw new Unsupported(`repeats=[${repeats.join(',')}] must hold one value per input dim`);
  ctx.set(node.outputs[0]!, ctx.op1('Tensor.repeat', [x], { params: [['sizes', P.ints(repeats)]], outputs: [node.outputs[0]!] }));
};

export const depthToSpace: Converter = (ctx, node) => {
  const blocksize = node.attrs.int('blocksize');
  if (blocksize === undefined) throw new Unsupported('attribute blocksize is missing');
  const mode = node.opset >= 11 ? node.attrs.string('mode', 'DCR') : 'DCR';
  const x = ctx.get(node.inputs[0]!);
  const out = node.outputs[0]!;
  if (mode === 'CRD') ctx.set(out, ctx.op1('nn.PixelShuffle', [x], { params: [['upscale_factor', P.int(blocksize)]], outputs: [out] }));
  else if (mode === 'DCR') ctx.set(out, ctx.op1('onnx.DepthToSpace', [x], { params: [['blocksize', P.int(blocksize)], ['mode', P.string('DCR')]], outputs: [out] }));
  else throw new Unsupported(`mode=${mode}`);
};

export const expand: Converter = (ctx, node) => {
  const x = ctx.get(node.inputs[0]!);
  const shape = ctx.numbersInput(node, 1, 'the shape')!;
  if (x.kind !== 'const') throw new Unsupported('Expand of a run-time tensor');
  ctx.set(node.outputs[0]!, constant(expandTensor(x.tensor, shape)));
};
