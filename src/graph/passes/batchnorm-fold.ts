// Batch-norm folding: y = (conv(x) - mean) / sqrt(var + eps) * gamma + beta is one convolution with
// weights scaled per output channel and a new bias. Same for a transposed convolution (whose output
// channel is dim 1 of the weight, per group) and for a linear layer followed by BatchNorm1d.
// The producer must feed only the batch-norm and carry nothing fused yet.

import { NodeError } from '../../errors.ts';
import { ACTIVATION_PARAM } from '../../ops/fused-activation.ts';
import { RESIDUAL_PARAM } from '../../ops/conv-params.ts';
import { batchNormAffine } from '../../ops/batchnorm.ts';
import { ParamReader } from '../../ops/params.ts';
import { toFloat32 } from '../../tensor/dtype.ts';
import type { Node } from '../graph.ts';
import { P } from '../param.ts';
import type { Pass } from './pass.ts';
import { absorbInto, describe, soleConsumer } from './util.ts';

const PRODUCERS: Record<string, string[]> = {
  'nn.Conv2d': ['nn.BatchNorm2d'],
  'nn.ConvTranspose2d': ['nn.BatchNorm2d'],
  'nn.Linear': ['nn.BatchNorm1d'],
};

function hasData(node: Node, keys: string[]): boolean {
  return keys.every((k) => !node.weights.has(k) || node.weights.get(k)!.data);
}

/**
 * The output channel of each weight element: Conv2d (Cout, ...) and Linear (Cout, K) lead with it;
 * ConvTranspose2d's (Cin, Cout/groups, KH, KW) has it in dim 1, offset by the group of dim 0.
 */
function outputChannelOf(producer: Node, shape: readonly number[], channels: number): (i: number) => number {
  const total = shape.reduce((a, b) => a * b, 1);
  if (producer.type !== 'nn.ConvTranspose2d') {
    const perChannel = total / channels;
    return (i) => Math.floor(i / perChannel);
  }
  const groups = new ParamReader(producer).int('groups', 1);
  const [cin, n] = [shape[0]!, shape[1]!];
  const taps = total / (cin * n);
  const k = cin / groups;
  if (groups * n !== channels) throw new NodeError(producer, `cannot fold a batch norm of ${channels} channels into ${groups * n} output channels`);
  return (i) => {
    const row = Math.floor(i / taps); // ci * n + o
    const ci = Math.floor(row / n);
    return Math.floor(ci / k) * n + (row - ci * n);
  };
}

export const foldBatchNorms: Pass = {
  name: 'fold-batchnorm',
  minLevel: 1,
  run(graph) {
    const changes = [];
    for (const producer of [...graph.nodes]) {
      const bnTypes = PRODUCERS[producer.type];
      if (!bnTypes || producer.params.has(ACTIVATION_PARAM) || producer.params.has(RESIDUAL_PARAM)) continue;
      const bn = soleConsumer(producer.outputs[0]!);
      if (!bn || !bnTypes.includes(bn.type)) continue;
      if (producer.type === 'nn.Linear' && producer.outputs[0]!.shape!.length !== 2) continue; // BatchNorm1d on (N,C) only
      if (!hasData(producer, ['weight', 'bias']) || !hasData(bn, ['running_mean', 'running_var', 'weight', 'bias'])) continue;
      const { scale: scales, shift } = batchNormAffine(bn);
      const channels = scales.length;
      const w = producer.weights.get('weight')!;
      const weights = toFloat32(w.dtype!, w.data!).slice();
      if (weights.length % channels !== 0) throw new NodeError(producer, `cannot fold ${describe(bn)}: ${channels} channels do not divide the weights`);
      const channelOf = outputChannelOf(producer, w.shape, channels);
      const oldBias = producer.weights.get('bias')?.data ? toFloat32(producer.weights.get('bias')!.dtype!, producer.weights.get('bias')!.data!) : undefined;
      const bias = new Float32Array(channels);
      for (let c = 0; c < channels; c++) bias[c] = (oldBias ? oldBias[c]! : 0) * scales[c]! + shift[c]!;
      for (let i = 0; i < weights.length; i++) weights[i] = weights[i]! * scales[channelOf(i)]!;
      producer.weights.set('weight', { dtype: 'f32', shape: w.shape, data: weights });
      producer.weights.set('bias', { dtype: 'f32', shape: [channels], data: bias });
      producer.params.set('bias', P.bool(true));
      absorbInto(graph, producer, bn);
      changes.push({ description: `folded ${describe(bn)} into ${describe(producer)}` });
    }
    return changes;
  },
};
