// Which fast lowering each node type tries, in order; a node no lowering covers runs on the fallback.

import type { Node } from '../../graph/graph.ts';
import type { BoundOp } from '../op.ts';
import type { LoweringResult } from '../../runtime/fast/lowering.ts';
import { lowerAlias } from './alias.ts';
import { lowerExpression } from './expression.ts';
import { lowerFallback } from './fallback.ts';
import { lowerConv1x1, lowerLinear } from './gemm.ts';

type Lowering = (node: Node, op: BoundOp) => LoweringResult | undefined;

const ALIASING = ['nn.Identity', 'nn.Dropout', 'nn.Dropout2d', 'F.dropout', 'torch.flatten', 'nn.Flatten', 'Tensor.view', 'Tensor.reshape', 'torch.reshape', 'Tensor.contiguous'];

const LOWERINGS: ReadonlyMap<string, readonly Lowering[]> = new Map<string, Lowering[]>([
  ['nn.Conv2d', [lowerConv1x1]],
  ['nn.Linear', [lowerLinear]],
  ['pnnx.Expression', [lowerExpression]],
  ...ALIASING.map((t): [string, Lowering[]] => [t, [lowerAlias]]),
]);

/** The first lowering that covers the node, else the fallback; `fast` says which it was. */
export function lowerNode(node: Node, op: BoundOp): { result: LoweringResult; fast: boolean } {
  for (const lower of LOWERINGS.get(node.type) ?? []) {
    const result = lower(node, op);
    if (result) return { result, fast: true };
  }
  return { result: lowerFallback(node), fast: false };
}
