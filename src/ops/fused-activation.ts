// An activation fused into the op that produces its input (a convolution or linear layer), as the
// fusion pass leaves it: the activation's PNNX type and params ride on the producer as
//   flowinfer.activation=nn.LeakyReLU  flowinfer.activation.negative_slope=0.1
// The producer's reference applies the activation's own reference function to its result, so the
// fused graph computes exactly what the unfused one did; the fast path maps it onto a GEMM epilogue.

import { Node } from '../graph/graph.ts';
import type { Param } from '../graph/param.ts';
import type { Tensor } from '../tensor/tensor.ts';
import { ACTIVATIONS } from './activation.ts';
import { ParamReader } from './params.ts';

export const ACTIVATION_PARAM = 'flowinfer.activation';
const PREFIX = `${ACTIVATION_PARAM}.`;

export interface FusedActivation {
  /** The activation's PNNX type, e.g. nn.ReLU6. */
  readonly type: string;
  readonly params: ReadonlyMap<string, Param>;
  /** Its reference function, params applied. */
  readonly apply: (x: number) => number;
}

/** The params to put on the producer when `activation` is fused into it. */
export function fusedActivationParams(activation: Node): Array<[string, Param]> {
  return [[ACTIVATION_PARAM, { kind: 'string', value: activation.type }], ...[...activation.params].map(([k, p]): [string, Param] => [`${PREFIX}${k}`, p])];
}

/** The activation fused into `node`, if any (validated: an unknown type is a NodeError at bind). */
export function readFusedActivation(node: Node): FusedActivation | undefined {
  const p = node.params.get(ACTIVATION_PARAM);
  if (!p) return undefined;
  const reader = new ParamReader(node);
  if (p.kind !== 'string') return reader.fail(`param ${ACTIVATION_PARAM} must name an activation type`);
  const spec = ACTIVATIONS.find((a) => a.types.includes(p.value));
  if (!spec) return reader.fail(`param ${ACTIVATION_PARAM}=${p.value}: not an activation type`);
  const params = new Map([...node.params].filter(([k]) => k.startsWith(PREFIX)).map(([k, v]) => [k.slice(PREFIX.length), v]));
  // The activation's params are read as if by the activation node itself, so errors still name this node.
  const carrier = new Node(p.value, `${node.name} (fused ${p.value})`, [], []);
  carrier.source = node.source;
  for (const [k, v] of params) carrier.params.set(k, v);
  return { type: p.value, params, apply: spec.make(new ParamReader(carrier)) };
}

/** Applies the fused activation to a reference result in place. */
export function applyFused(t: Tensor, activation: FusedActivation | undefined): Tensor {
  if (!activation) return t;
  const d = t.f32;
  for (let i = 0; i < d.length; i++) d[i] = activation.apply(d[i]!);
  return t;
}
