// Residual fusion: `add(@0,@1)` of two same-shaped tensors where one is a convolution's only use becomes
// that convolution's second input (`flowinfer.residual=True`): the kernel adds it in its epilogue, before
// any activation, instead of a separate pass over memory. Run before activation fusion, so that the
// ReLU after a ResNet block's add can then fuse too.

import { parseExpression } from '../../expr/index.ts';
import { ACTIVATION_PARAM } from '../../ops/fused-activation.ts';
import { RESIDUAL_PARAM } from '../../ops/conv-params.ts';
import type { Node, Value } from '../graph.ts';
import { P } from '../param.ts';
import { topologicalOrder } from '../order.ts';
import type { Pass } from './pass.ts';
import { absorbInto, describe, soleConsumer } from './util.ts';

function isPlainAdd(node: Node): boolean {
  const expr = node.params.get('expr');
  if (node.type !== 'pnnx.Expression' || node.inputs.length !== 2 || expr?.kind !== 'string') return false;
  const root = parseExpression(expr.value, { inputCount: 2 }).root;
  return root.kind === 'call' && root.fn === 'add' && root.args.length === 2 &&
    root.args[0]!.kind === 'operand' && root.args[1]!.kind === 'operand' && root.args[0].index !== root.args[1].index;
}

function fusableConv(v: Value, add: Node): Node | undefined {
  const conv = v.producer;
  if (!conv || conv.type !== 'nn.Conv2d' || conv.params.has(ACTIVATION_PARAM) || conv.params.has(RESIDUAL_PARAM)) return undefined;
  return soleConsumer(v) === add ? conv : undefined;
}

export const fuseResiduals: Pass = {
  name: 'fuse-residuals',
  minLevel: 3,
  run(graph) {
    const changes = [];
    const position = new Map(topologicalOrder(graph).map((n, i) => [n, i]));
    for (const add of [...graph.nodes]) {
      if (!isPlainAdd(add)) continue;
      const [a, b] = add.inputs as [Value, Value];
      if (a.dtype !== 'f32' || b.dtype !== 'f32' || a.shape!.length !== 4 || a.shape!.join() !== b.shape!.join()) continue;
      // Prefer the convolution that runs later: the other operand is then usually ready before it starts.
      const candidates = [fusableConv(a, add), fusableConv(b, add)]
        .map((conv, i) => ({ conv, residual: i === 0 ? b : a }))
        .filter((c): c is { conv: Node; residual: Value } => c.conv !== undefined)
        .sort((x, y) => position.get(y.conv)! - position.get(x.conv)!);
      const chosen = candidates[0];
      if (!chosen) continue;
      chosen.conv.inputs.push(chosen.residual);
      chosen.residual.consumers.push(chosen.conv);
      chosen.conv.params.set(RESIDUAL_PARAM, P.bool(true));
      absorbInto(graph, chosen.conv, add);
      changes.push({ description: `fused ${describe(add)} into ${describe(chosen.conv)} as a residual` });
    }
    return changes;
  },
};
