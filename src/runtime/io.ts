// Naming and checking a model's inputs and outputs. A model input is named after its pnnx.Input node
// (`pnnx_input_0`), an output after its pnnx.Output node (`pnnx_output_0`); inputs may also be given
// positionally.

import { UsageError } from '../errors.ts';
import { INPUT_TYPE, OUTPUT_TYPE, type Graph, type Value } from '../graph/graph.ts';
import type { DType } from '../tensor/dtype.ts';
import { formatShape, type Shape } from '../tensor/shape.ts';
import type { Tensor } from '../tensor/tensor.ts';

export interface TensorInfo {
  readonly name: string;
  readonly shape: Shape;
  readonly dtype: DType;
}

/** One tensor (single-input models), tensors in input order, or tensors by input name. */
export type ModelInputs = Tensor | readonly Tensor[] | Readonly<Record<string, Tensor>>;
/** Output tensors by output name. */
export type ModelOutputs = Record<string, Tensor>;

export interface Port {
  readonly name: string;
  readonly value: Value;
}

export function inputPorts(graph: Graph): Port[] {
  return graph.nodes.filter((n) => n.type === INPUT_TYPE).map((n) => ({ name: n.name, value: n.outputs[0]! }));
}

export function outputPorts(graph: Graph): Port[] {
  return graph.nodes.filter((n) => n.type === OUTPUT_TYPE).map((n) => ({ name: n.name, value: n.inputs[0]! }));
}

function isTensorLike(x: unknown): x is Tensor {
  return typeof x === 'object' && x !== null && 'shape' in x && 'data' in x && 'dtype' in x;
}

/** Matches the caller's tensors to input ports; checks count, names, dtype and rank. */
export function bindInputs(ports: readonly Port[], inputs: ModelInputs): Map<Value, Tensor> {
  let list: Tensor[];
  if (isTensorLike(inputs)) list = [inputs];
  else if (Array.isArray(inputs)) list = [...inputs];
  else {
    const byName = inputs as Readonly<Record<string, Tensor>>;
    for (const name of Object.keys(byName)) {
      if (!ports.some((p) => p.name === name)) throw new UsageError(`the model has no input "${name}" (inputs: ${ports.map((p) => p.name).join(', ')})`);
    }
    list = ports.map((p) => {
      const t = byName[p.name];
      if (!t) throw new UsageError(`input "${p.name}" is missing`);
      return t;
    });
  }
  if (list.length !== ports.length) {
    throw new UsageError(`the model takes ${ports.length} input${ports.length === 1 ? '' : 's'} (${ports.map((p) => p.name).join(', ')}), got ${list.length}`);
  }
  const bound = new Map<Value, Tensor>();
  ports.forEach((p, i) => {
    const t = list[i]!;
    const expected = p.value.annotation?.shape ?? p.value.shape;
    if (t.dtype !== 'f32') throw new UsageError(`input "${p.name}" is ${t.dtype}, expected f32`);
    if (expected && expected.length !== t.shape.length) {
      throw new UsageError(`input "${p.name}" has shape ${formatShape(t.shape)}, expected rank ${expected.length} like ${formatShape(expected)}`);
    }
    bound.set(p.value, t);
  });
  return bound;
}
