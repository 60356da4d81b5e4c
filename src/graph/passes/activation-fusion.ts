// Activation fusion: a convolution (plain or transposed) or linear layer whose only consumer is an activation the kernels can
// apply in their epilogue takes it over (ops/fused-activation.ts); one pass over memory instead of two.

import { ACTIVATION_PARAM, fusedActivationParams } from '../../ops/fused-activation.ts';
import { FUSABLE_ACTIVATIONS } from '../../ops/fast/epilogue.ts';
import type { Pass } from './pass.ts';
import { absorbInto, describe, soleConsumer } from './util.ts';

const PRODUCERS = new Set(['nn.Conv2d', 'nn.ConvTranspose2d', 'nn.Linear']);

export const fuseActivations: Pass = {
  name: 'fuse-activations',
  minLevel: 2,
  run(graph) {
    const changes = [];
    for (const producer of [...graph.nodes]) {
      if (!PRODUCERS.has(producer.type) || producer.params.has(ACTIVATION_PARAM)) continue;
      const act = soleConsumer(producer.outputs[0]!);
      if (!act || !FUSABLE_ACTIVATIONS.has(act.type) || act.inputs.length !== 1) continue;
      for (const [k, p] of fusedActivationParams(act)) producer.params.set(k, p);
      absorbInto(graph, producer, act);
      changes.push({ description: `fused ${describe(act)} into ${describe(producer)}` });
    }
    return changes;
  },
};
