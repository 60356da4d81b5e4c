// pnnx.Expression: an elementwise expression over its inputs (`add(@0,mul(@1,2))`), see src/expr.

import { broadcastShapes, formatShape } from '../tensor/shape.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const expression: OpDef = {
  types: ['pnnx.Expression'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const raw = p.raw('expr');
    if (!raw || raw.kind !== 'string') p.fail('param expr is missing: expected an expression such as add(@0,@1)');
    return {
      infer(inputs) {
        const shape = broadcastShapes(inputs.map((x) => x.shape));
        if (!shape) p.fail(`input shapes ${inputs.map((x) => formatShape(x.shape)).join(' and ')} do not broadcast`);
        return [{ shape, dtype: inputs[0]?.dtype ?? 'f32' }];
      },
      macs: noMacs,
    };
  },
};
