// Tensor.view / Tensor.reshape / torch.reshape: the same elements, in row-major order, under a new shape
// with at most one -1 (inferred). The shape is a param (`shape=(1,-1)`) or, when PNNX computed it at run
// time, a second input (`$shape`) holding integers.

import type { TypedArray } from '../tensor/dtype.ts';
import { formatShape, numel, type Shape } from '../tensor/shape.ts';
import { reshaped } from './layout.ts';
import { noMacs, type OpDef, type ShapeInfo } from './op.ts';
import { ParamReader } from './params.ts';

/** The values of an integer shape tensor (int64 arrives as bigint) as numbers. */
export function toNumbers(data: TypedArray): number[] {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) out.push(Number(data[i]));
  return out;
}

function checkTarget(p: ParamReader, target: readonly number[]): void {
  const free = target.filter((d) => d === -1).length;
  if (free > 1 || target.some((d) => !Number.isInteger(d) || d < -1)) p.fail(`shape=(${target.join(',')}): expected sizes >= 0 and at most one -1`);
}

/** PyTorch's infer_size: the -1 takes whatever count the other dims leave. */
function resolveShape(p: ParamReader, target: readonly number[], input: Shape): number[] {
  checkTarget(p, target);
  const count = numel(input);
  const free = target.indexOf(-1);
  const described = `shape=(${target.join(',')})`;
  const known = target.reduce((a, d) => (d === -1 ? a : a * d), 1);
  const shape = [...target];
  if (free >= 0) {
    if (known === 0 || count % known !== 0) p.fail(`${described} does not fit input ${formatShape(input)} of ${count} elements`);
    shape[free] = count / known;
  } else if (known !== count) {
    p.fail(`${described} holds ${known} elements, input ${formatShape(input)} holds ${count}`);
  }
  return shape;
}

export const reshape: OpDef = {
  types: ['Tensor.view', 'Tensor.reshape', 'torch.reshape'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const param = p.has('shape') ? p.intList('shape') : undefined;
    const fromInput = node.inputs.length === 2 || node.inputKeys.has('shape');
    if (!param && !fromInput) p.fail('param shape is missing (and there is no $shape input): expected a tuple such as (1,-1)');
    if (param) checkTarget(p, param);

    /** A runtime shape is known before the run only if it is a loaded constant, or the file annotated the output. */
    const staticTarget = (x: ShapeInfo): readonly number[] => {
      if (param) return param;
      const producer = node.inputs[1]?.producer;
      const constant = producer?.type === 'pnnx.Attribute' ? producer.weights.get('data')?.data : undefined;
      if (constant) return toNumbers(constant);
      const a = node.outputs[0]?.annotation;
      if (a && !a.shape.includes(-1) && numel(a.shape) === numel(x.shape)) return a.shape;
      return p.fail(`the target shape is the run-time input "${node.inputs[1]?.name}": its values, and so the output shape, are unknown before the run`);
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, param ? 1 : 2, 2);
        const x = inputs[0]!;
        return [{ shape: resolveShape(p, staticTarget(x), x.shape), dtype: x.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, param ? 1 : 2, 2);
        const target = param ?? toNumbers(inputs[1]!.data);
        return [reshaped(inputs[0]!, resolveShape(p, target, inputs[0]!.shape))];
      },
    };
  },
};
