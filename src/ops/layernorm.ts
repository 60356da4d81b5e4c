// nn.LayerNorm / F.layer_norm: each slice over the last len(normalized_shape) dims is normalised with its own
// mean and biased variance, y = (x - mean) / sqrt(var + eps) * weight + bias. nn.LayerNorm holds @weight
// and @bias (elementwise_affine); F.layer_norm takes them as inputs ($weight, $bias), when given.

import type { Node } from '../graph/graph.ts';
import { formatShape, numel, sameShape, type Shape } from '../tensor/shape.ts';
import type { SeededRandom } from '../tensor/random.ts';
import { Tensor } from '../tensor/tensor.ts';
import { allocateWeight } from './init.ts';
import { sameAsInput, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

/** Positions of F.layer_norm's optional weight and bias among the node's inputs. */
function affineInputs(node: Node): { weight: number | undefined; bias: number | undefined } {
  const at = (key: string, positional: number): number | undefined => {
    const name = node.inputKeys.get(key);
    if (name !== undefined) return node.inputs.findIndex((v) => v.name === name);
    return node.inputKeys.size === 0 && node.inputs.length > positional ? positional : undefined;
  };
  return { weight: at('weight', 1), bias: at('bias', 2) };
}

export const layerNorm: OpDef = {
  types: ['nn.LayerNorm', 'F.layer_norm'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const normalized = p.intList('normalized_shape');
    const eps = p.float('eps', 1e-5);
    if (normalized.length === 0 || normalized.some((d) => d < 1)) p.fail(`normalized_shape=(${normalized.join(',')}) must be non-empty sizes >= 1`);
    const module = node.type === 'nn.LayerNorm';
    const affine = module ? p.bool('elementwise_affine', true) : false;
    const hasBias = module && affine && p.bool('bias', node.weights.has('bias'));
    for (const key of affine ? (hasBias ? ['weight', 'bias'] : ['weight']) : []) {
      const s = p.weightShape(key);
      if (!s || !sameShape(s, normalized)) p.fail(`weight @${key} is ${s ? formatShape(s) : 'missing'}: expected ${formatShape(normalized)}`);
    }
    const inputs = module ? { weight: undefined, bias: undefined } : affineInputs(node);
    const inputCount = 1 + (inputs.weight !== undefined ? 1 : 0) + (inputs.bias !== undefined ? 1 : 0);
    const check = (x: Shape) => {
      if (!sameShape(x.slice(x.length - normalized.length), normalized) || x.length < normalized.length) {
        p.fail(`input ${formatShape(x)} does not end in normalized_shape=${formatShape(normalized)}`);
      }
    };
    return {
      infer(shapes) {
        p.expectInputs(shapes, inputCount);
        check(shapes[0]!.shape);
        for (const i of [inputs.weight, inputs.bias]) {
          if (i !== undefined && !sameShape(shapes[i]!.shape, normalized)) p.fail(`input ${i} ${formatShape(shapes[i]!.shape)}: expected ${formatShape(normalized)}`);
        }
        return sameAsInput(shapes);
      },
      macs: (_inputs, outputs) => numel(outputs[0]!.shape),
      reference(tensors) {
        this.infer(tensors);
        const x = tensors[0]!;
        const weight = affine ? p.weightF32('weight') : inputs.weight !== undefined ? tensors[inputs.weight]!.f32 : undefined;
        const bias = hasBias ? p.weightF32('bias') : inputs.bias !== undefined ? tensors[inputs.bias]!.f32 : undefined;
        const size = numel(normalized);
        const xd = x.f32;
        const out = new Float32Array(xd.length);
        for (let base = 0; base < xd.length; base += size) {
          const [mean, variance] = meanAndVariance(xd, base, size);
          const inv = 1 / Math.sqrt(variance + eps);
          for (let i = 0; i < size; i++) {
            out[base + i] = (xd[base + i]! - mean) * inv * (weight ? weight[i]! : 1) + (bias ? bias[i]! : 0);
          }
        }
        return [new Tensor('f32', x.shape, out)];
      },
    };
  },
  initWeights: initNormAffine,
};

/** Mean and biased variance of xd[base, base + size), as PyTorch's normalisation layers take them. */
export function meanAndVariance(xd: Float32Array, base: number, size: number): [number, number] {
  let mean = 0;
  for (let i = 0; i < size; i++) mean += xd[base + i]!;
  mean /= size;
  let variance = 0;
  for (let i = 0; i < size; i++) variance += (xd[base + i]! - mean) ** 2;
  return [mean, variance / size];
}

/** Seeded affine parameters of a normalisation layer: weight near 1, bias near 0. */
export function initNormAffine(node: Node, random: SeededRandom): void {
  const w = allocateWeight(node, 'weight');
  if (w) random.fillUniform(w, 0.8, 1.2);
  const b = allocateWeight(node, 'bias');
  if (b) random.fillUniform(b, -0.1, 0.1);
}
