// Graph boundary and constants: pnnx.Input, pnnx.Output, pnnx.Attribute.

import { DYNAMIC, formatShape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** An Input's shape comes from its annotation unless the caller binds another (see graph/shapes.ts). */
export const input: OpDef = {
  types: ['pnnx.Input'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    return {
      infer() {
        const a = node.outputs[0]?.annotation;
        if (!a) p.fail('the input has no shape annotation: give its shape (e.g. --input-shape 1,3,224,224)');
        if (a.shape.includes(DYNAMIC)) p.fail(`the input shape ${formatShape(a.shape)} has dynamic dims: give its shape (e.g. --input-shape)`);
        return [{ shape: a.shape, dtype: a.dtype ?? 'f32' }];
      },
      macs: noMacs,
      reference: () => p.fail('a graph input has no reference: its value is given by the caller (the engine binds it)'),
    };
  },
};

export const output: OpDef = {
  types: ['pnnx.Output'],
  bind() {
    return { infer: () => [], macs: noMacs, reference: () => [] };
  },
};

/** A constant tensor (`@data`) produced as an operand. */
export const attribute: OpDef = {
  types: ['pnnx.Attribute'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const shape = p.weightShape('data');
    if (!shape) p.fail('weight @data is missing');
    const dtype = node.weights.get('data')!.dtype ?? 'f32';
    return {
      infer: () => [{ shape, dtype }],
      macs: noMacs,
      reference: () => {
        const w = p.weight('data');
        return [new Tensor(dtype, shape, w.data)];
      },
    };
  },
};
