// nn.PReLU / F.prelu: y = x for x >= 0, weight[c] * x otherwise, with one slope shared (num_parameters=1)
// or one per channel, the channel being dim 1 (inputs of rank < 2 have one channel).

import { formatShape } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { splitAround } from './layout.ts';
import { noMacs, sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';
import { allocateWeight } from './init.ts';

export const prelu: OpDef = {
  types: ['nn.PReLU', 'F.prelu'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const module = node.type === 'nn.PReLU';
    const slopes = module ? p.int('num_parameters', 1) : undefined;
    if (module) {
      const s = p.weightShape('weight');
      if (!s || s.length !== 1 || s[0] !== slopes) p.fail(`weight @weight is ${s ? formatShape(s) : 'missing'}: expected (${slopes})`);
    }
    const check = (x: readonly number[], count: number) => {
      if (count !== 1 && (x.length < 2 || x[1] !== count)) p.fail(`${count} slopes need an input with ${count} channels at dim 1, got ${formatShape(x)}`);
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, module ? 1 : 2);
        const count = module ? slopes! : inputs[1]!.shape.reduce((a, b) => a * b, 1);
        check(inputs[0]!.shape, count);
        return sameAsInput(inputs);
      },
      macs: noMacs,
      reference(inputs) {
        this.infer(inputs);
        const x = inputs[0]!;
        const weight = module ? p.weightF32('weight') : inputs[1]!.f32;
        const { outer, size, inner } = x.rank >= 2 ? splitAround(x.shape, 1) : { outer: 1, size: 1, inner: x.size };
        const xd = x.f32;
        const out = new Float32Array(xd.length);
        for (let o = 0; o < outer; o++) {
          for (let c = 0; c < size; c++) {
            const slope = weight[weight.length === 1 ? 0 : c]!;
            for (let i = (o * size + c) * inner; i < (o * size + c + 1) * inner; i++) out[i] = xd[i]! >= 0 ? xd[i]! : slope * xd[i]!;
          }
        }
        return [new Tensor('f32', x.shape, out)];
      },
    };
  },
  initWeights(node, random) {
    // PyTorch initialises every slope to 0.25; a little spread keeps channels apart in tests.
    const w = allocateWeight(node, 'weight');
    if (w) random.fillUniform(w, 0.2, 0.3);
  },
};
