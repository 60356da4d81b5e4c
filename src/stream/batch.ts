// Gathering frames into one batch (concatenated along dim 0, each frame's input having batch 1) and
// splitting a batch's outputs back into per-frame outputs. A short batch is padded with zeros up to the
// planned batch size so the engine keeps its plan; the padding's outputs are dropped.

import { UsageError } from '../errors.ts';
import type { ModelInputs, ModelOutputs } from '../runtime/io.ts';
import { formatShape, numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';

function asList(input: ModelInputs): Tensor[] {
  if (input instanceof Tensor) return [input];
  if (Array.isArray(input)) return [...input];
  return Object.values(input as Record<string, Tensor>);
}

export function gatherBatch(inputs: readonly ModelInputs[], batch: number): ModelInputs {
  const lists = inputs.map(asList);
  const named = !(inputs[0] instanceof Tensor) && !Array.isArray(inputs[0]) ? Object.keys(inputs[0] as Record<string, Tensor>) : undefined;
  const gathered = lists[0]!.map((first, k) => {
    if (first.shape[0] !== 1) throw new UsageError(`batching needs frames of batch 1, got an input of shape ${formatShape(first.shape)}`);
    const each = numel(first.shape);
    const data = new Float32Array(each * batch);
    lists.forEach((list, f) => {
      const t = list[k]!;
      if (t.shape.join() !== first.shape.join()) throw new UsageError(`frames of one batch differ: ${formatShape(t.shape)} vs ${formatShape(first.shape)}`);
      data.set(t.f32, f * each);
    });
    return new Tensor('f32', [batch, ...first.shape.slice(1)], data);
  });
  return named ? Object.fromEntries(named.map((n, k) => [n, gathered[k]!])) : gathered;
}

export function splitBatch(outputs: ModelOutputs, batch: number): ModelOutputs[] {
  const parts: ModelOutputs[] = Array.from({ length: batch }, () => ({}));
  for (const [name, t] of Object.entries(outputs)) {
    if (t.shape[0] !== batch) throw new UsageError(`output "${name}" ${formatShape(t.shape)} has no batch dim of ${batch} to split`);
    const each = numel(t.shape) / batch;
    for (let f = 0; f < batch; f++) parts[f]![name] = new Tensor('f32', [1, ...t.shape.slice(1)], t.f32.slice(f * each, (f + 1) * each));
  }
  return parts;
}
