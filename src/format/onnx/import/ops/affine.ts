// A convolution's or linear layer's output multiplied by, or added to, a constant that is one value or one
// value per output channel, folds into the layer: Mul scales the weights and bias of each output channel,
// Add adds to the bias. Exporters leave such affine steps behind (Paddle's learnable affine blocks, a
// Caffe2 bias, a ConvTranspose bias written as an Add); folded, the layer's fused epilogue does the work
// of a whole pass over memory. Only when the layer's output feeds nothing else.

import type { Node } from '../../../../graph/graph.ts';
import { P } from '../../../../graph/param.ts';
import { toFloat32 } from '../../../../tensor/dtype.ts';
import type { Tensor } from '../../../../tensor/tensor.ts';
import type { ImportContext, OnnxNode, Operand } from '../context.ts';

/** The channel count and channel dim of the layer's output, for the layers whose weights fold. */
function layout(node: Node): { channels: number; perChannel: (i: number) => number } | undefined {
  const w = node.weights.get('weight');
  if (!w?.data || w.dtype !== 'f32' || [...node.params.keys()].some((k) => k.startsWith('flowinfer.'))) return undefined;
  if (node.type === 'nn.Conv2d' || node.type === 'nn.Linear') {
    const channels = w.shape[0]!;
    const per = w.data.length / channels;
    return { channels, perChannel: (i) => Math.floor(i / per) };
  }
  if (node.type === 'nn.ConvTranspose2d') {
    // (in, out/groups, kh, kw): element i belongs to output channel group * out/groups + o.
    const [inChannels, outPerGroup, kh, kw] = w.shape as [number, number, number, number];
    const groups = Number((node.params.get('groups') as { value?: number } | undefined)?.value ?? 1);
    const inPerGroup = inChannels / groups;
    return {
      channels: outPerGroup * groups,
      perChannel: (i) => Math.floor(Math.floor(i / (outPerGroup * kh * kw)) / inPerGroup) * outPerGroup + (Math.floor(i / (kh * kw)) % outPerGroup),
    };
  }
  return undefined;
}

/** The constant as `channels` values, if it is one value or one per channel of a value of `rank` dims. */
function perChannel(t: Tensor, channels: number, rank: number, channelDim: number): Float32Array | undefined {
  if (t.shape.length > rank) return undefined;
  const values = toFloat32(t.dtype, t.data);
  if (values.length === 1) return new Float32Array(channels).fill(values[0]!);
  const aligned = [...new Array<number>(rank - t.shape.length).fill(1), ...t.shape];
  const ok = aligned.every((d, k) => (k === channelDim ? d === channels : d === 1));
  return ok ? Float32Array.from(values) : undefined;
}

/** Folds `node` (Mul or Add of a layer's output and a constant) into the layer; false if it does not apply. */
export function foldAffine(ctx: ImportContext, node: OnnxNode, operands: readonly Operand[]): boolean {
  if (operands.length !== 2 || (node.opType !== 'Mul' && node.opType !== 'Add')) return false;
  const k = operands.findIndex((o) => o.kind === 'value');
  const v = operands[k];
  const c = operands[1 - k];
  if (!v || v.kind !== 'value' || !c || c.kind !== 'const') return false;
  const layer = v.value.producer;
  if (!layer || v.value.consumers.length > 0 || (ctx.consumers.get(node.inputs[k]!) ?? 0) !== 1) return false;
  const l = layout(layer);
  const rank = v.value.shape!.length;
  if (!l) return false;
  const s = perChannel(c.tensor, l.channels, rank, layer.type === 'nn.Linear' ? rank - 1 : 1);
  if (!s) return false;
  const w = layer.weights.get('weight')!;
  const b = layer.weights.get('bias');
  const bias = b?.data ? Float32Array.from(b.data as Float32Array) : new Float32Array(l.channels);
  if (node.opType === 'Mul') {
    const weight = Float32Array.from(w.data as Float32Array, (x, i) => Math.fround(x * s[l.perChannel(i)]!));
    layer.weights.set('weight', { ...w, data: weight });
    for (let i = 0; i < bias.length; i++) bias[i] = Math.fround(bias[i]! * s[i]!);
  } else {
    for (let i = 0; i < bias.length; i++) bias[i] = Math.fround(bias[i]! + s[i]!);
  }
  if (b || node.opType === 'Add') {
    layer.weights.set('bias', { dtype: 'f32', shape: [l.channels], data: bias });
    layer.params.set('bias', P.bool(true));
  }
  ctx.set(node.outputs[0]!, v);
  return true;
}
