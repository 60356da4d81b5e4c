// F.pad and the nn padding modules (nn.ZeroPad2d, nn.ConstantPad2d, nn.ReflectionPad2d,
// nn.ReplicationPad2d, nn.CircularPad2d and their 1d/3d forms). The pad list is PyTorch's: last dim first,
// (last_before, last_after, second_last_before, ...). Constant padding may be negative (it crops); the
// other modes read inside the input (see border.ts), so their pads must be >= 0 and fit the input.

import { formatShape, numel, stridesOf, type Shape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { borderIndex, maxBorder, type BorderMode } from './border.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

const MODULES: Readonly<Record<string, BorderMode>> = { Zero: 'constant', Constant: 'constant', Reflection: 'reflect', Replication: 'replicate', Circular: 'circular' };
const MODULE_TYPES = Object.keys(MODULES).flatMap((m) => [1, 2, 3].map((d) => `nn.${m}Pad${d}d`));

/** Per input dim, padding before and after (0 for dims the list does not reach). */
function padsPerDim(pad: readonly number[], rank: number): Array<[number, number]> {
  const out = Array.from({ length: rank }, (): [number, number] => [0, 0]);
  for (let i = 0; i < pad.length / 2; i++) out[rank - 1 - i] = [pad[2 * i]!, pad[2 * i + 1]!];
  return out;
}

export const pad: OpDef = {
  types: ['F.pad', ...MODULE_TYPES],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    let mode: BorderMode;
    let list: number[];
    let value = 0;
    if (node.type === 'F.pad') {
      list = p.intList('pad');
      mode = p.string<BorderMode>('mode', ['constant', 'reflect', 'replicate', 'circular'], 'constant');
      if (mode === 'constant' && p.has('value')) value = p.float('value');
    } else {
      const [, kind, dims] = /^nn\.(\w+?)Pad(\d)d$/.exec(node.type)!;
      mode = MODULES[kind!]!;
      list = p.ints('padding', 2 * Number(dims));
      if (kind === 'Constant') value = p.float('value');
    }
    if (list.length % 2 !== 0) p.fail(`pad=(${list.join(',')}) must hold a (before, after) pair per dim`);
    if (mode !== 'constant' && list.some((v) => v < 0)) p.fail(`pad=(${list.join(',')}): mode ${mode} needs pads >= 0`);

    const plan = (shape: Shape): { pads: Array<[number, number]>; out: number[] } => {
      if (list.length / 2 > shape.length) p.fail(`pad=(${list.join(',')}) pads ${list.length / 2} dims, input ${formatShape(shape)} has ${shape.length}`);
      const pads = padsPerDim(list, shape.length);
      const out = shape.map((d, k) => d + pads[k]![0] + pads[k]![1]);
      pads.forEach(([before, after], k) => {
        if (out[k]! < 0 || Math.max(before, after) > maxBorder(shape[k]!, mode)) {
          p.fail(`pad=(${list.join(',')}) does not fit dim ${k} of input ${formatShape(shape)} in mode ${mode}`);
        }
      });
      return { pads, out };
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: plan(inputs[0]!.shape).out, dtype: inputs[0]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        const { pads, out } = plan(x.shape);
        // Per dim, the input index each output position reads (-1: the constant).
        const maps = out.map((size, k) => Int32Array.from({ length: size }, (_, o) => borderIndex(o - pads[k]![0], x.shape[k]!, mode)));
        const strides = stridesOf(x.shape);
        const xd = x.f32;
        const result = new Float32Array(numel(out));
        const pos = new Array<number>(out.length).fill(0);
        for (let i = 0; i < result.length; i++) {
          let offset = 0;
          for (let k = 0; k < out.length && offset >= 0; k++) {
            const src = maps[k]![pos[k]!]!;
            offset = src < 0 ? -1 : offset + src * strides[k]!;
          }
          result[i] = offset < 0 ? value : xd[offset]!;
          for (let k = out.length - 1; k >= 0; k--) {
            if (++pos[k]! < out[k]!) break;
            pos[k] = 0;
          }
        }
        return [Tensor.f32(out, result)];
      },
    };
  },
};
