// A fused activation (ops/fused-activation.ts) as a kernel epilogue code, where the kernels have one.

import type { Node } from '../../graph/graph.ts';
import type { Activation } from '../../kernels/activation.ts';
import { readFusedActivation } from '../fused-activation.ts';

const CODES: Readonly<Record<string, Activation>> = {
  'nn.ReLU': 'relu', 'F.relu': 'relu',
  'nn.ReLU6': 'relu6', 'F.relu6': 'relu6',
  'nn.SiLU': 'silu', 'F.silu': 'silu',
  'nn.Hardswish': 'hardswish', 'F.hardswish': 'hardswish',
  'nn.Sigmoid': 'sigmoid', 'F.sigmoid': 'sigmoid', 'torch.sigmoid': 'sigmoid',
  'nn.LeakyReLU': 'leaky_relu', 'F.leaky_relu': 'leaky_relu',
  // convolution kernels
  'nn.Hardsigmoid': 'hardsigmoid', 'F.hardsigmoid': 'hardsigmoid',
};

export interface Epilogue {
  readonly activation: Activation;
  readonly alpha: number;
}

/** The node's fused activation as an epilogue; undefined when the kernels cannot apply it. */
export function epilogueOf(node: Node): Epilogue | undefined {
  const fused = readFusedActivation(node);
  if (!fused) return { activation: 'none', alpha: 0 };
  const activation = CODES[fused.type];
  if (!activation) return undefined;
  const slope = fused.params.get('negative_slope');
  const alpha = activation === 'leaky_relu' ? (slope && (slope.kind === 'float' || slope.kind === 'int') ? slope.value : 0.01) : 0;
  return { activation, alpha };
}

/** The activation types a fusion pass may fold into a producer that has an epilogue. */
export const FUSABLE_ACTIVATIONS: ReadonlySet<string> = new Set(Object.keys(CODES));
