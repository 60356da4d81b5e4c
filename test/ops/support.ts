// Helpers for the op tests: one node built from param text, its reference run with the shape rule checked
// against the reference's outputs, and comparisons that print the N-d index of a mismatch.

import assert from 'node:assert/strict';
import { parseParamValue } from '../../src/format/pnnx/param-value.ts';
import { Graph, type Node, type Weight } from '../../src/graph/graph.ts';
import type { BoundOp } from '../../src/ops/op.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import { SeededRandom } from '../../src/tensor/random.ts';
import { formatShape, numel, type Shape } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';

export interface NodeOptions {
  /** Param text as a .pnnx.param line writes it: { kernel_size: '(3,3)', bias: 'False' }. */
  readonly params?: Record<string, string>;
  /** Weights with data. */
  readonly weights?: Record<string, Tensor>;
  /** Weights declared without data (shape only). */
  readonly declared?: Record<string, Shape>;
  readonly inputs?: number;
  readonly outputs?: number;
  readonly inputKeys?: Record<string, number>;
  readonly name?: string;
}

/** A node of `type` in a graph of its own; inputs are operands in0, in1, ...; outputs out0, .... */
export function makeNode(type: string, o: NodeOptions = {}): Node {
  const g = new Graph('test');
  const inputs = Array.from({ length: o.inputs ?? 1 }, (_, i) => g.value(`in${i}`));
  const outputs = Array.from({ length: o.outputs ?? 1 }, (_, i) => g.value(`out${i}`));
  return g.addNode({
    type,
    name: o.name ?? 'op',
    inputs,
    outputs,
    params: Object.entries(o.params ?? {}).map(([k, text]) => [k, parseParamValue(k, text)]),
    weights: [
      ...Object.entries(o.weights ?? {}).map(([k, t]): [string, Weight] => [k, { dtype: t.dtype, shape: t.shape, data: t.data }]),
      ...Object.entries(o.declared ?? {}).map(([k, shape]): [string, Weight] => [k, { dtype: 'f32', shape }]),
    ],
    inputKeys: Object.entries(o.inputKeys ?? {}).map(([k, i]) => [k, `in${i}`]),
  });
}

export function bind(type: string, o: NodeOptions = {}): BoundOp {
  const def = defaultRegistry.get(type);
  assert.ok(def, `${type} is not registered`);
  return def.bind(makeNode(type, o));
}

/** Runs the reference and checks that the shape rule predicts its outputs' shapes and dtypes. */
export function run(op: BoundOp, ...inputs: Tensor[]): Tensor[] {
  const outputs = op.reference(inputs);
  const predicted = op.infer(inputs.map((t) => ({ shape: t.shape, dtype: t.dtype })));
  assert.equal(predicted.length, outputs.length, 'infer and reference give different output counts');
  predicted.forEach((p, i) => {
    assert.deepEqual([...outputs[i]!.shape], [...p.shape], `output ${i}: infer says ${formatShape(p.shape)}, reference gives ${formatShape(outputs[i]!.shape)}`);
    assert.equal(outputs[i]!.dtype, p.dtype, `output ${i} dtype`);
  });
  return outputs;
}

/** run() for single-output ops. */
export function run1(op: BoundOp, ...inputs: Tensor[]): Tensor {
  return run(op, ...inputs)[0]!;
}

export function indexOf(shape: Shape, flat: number): number[] {
  const index = new Array<number>(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    index[d] = flat % shape[d]!;
    flat = Math.floor(flat / shape[d]!);
  }
  return index;
}

/** |got - want| <= atol + rtol * |want| everywhere (NaN only where NaN is expected); names the first misses. */
export function assertClose(got: Tensor, shape: Shape, want: ArrayLike<number>, atol = 1e-6, rtol = 1e-6): void {
  assert.deepEqual([...got.shape], [...shape], `shape: got ${formatShape(got.shape)}, expected ${formatShape(shape)}`);
  assert.equal(want.length, numel(shape), 'expected values do not fill the shape');
  const data = got.f32;
  const misses: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = data[i]!;
    const ok = Number.isNaN(w) ? Number.isNaN(g) : Math.abs(g - w) <= atol + rtol * Math.abs(w) || g === w;
    if (!ok && misses.length < 5) misses.push(`[${indexOf(shape, i).join(',')}]: expected ${w}, got ${g}`);
  }
  assert.deepEqual(misses, [], `mismatch in ${formatShape(shape)}:\n${misses.join('\n')}`);
}

/** Seeded uniform values in [-1, 1). */
export function randomTensor(shape: Shape, seed: number, lo = -1, hi = 1): Tensor {
  return Tensor.f32(shape, new SeededRandom(seed).fillUniform(new Float32Array(numel(shape)), lo, hi));
}

/** 0, 1, 2, ... in row-major order. */
export function arange(shape: Shape, start = 0): Tensor {
  return Tensor.f32(shape, Float32Array.from({ length: numel(shape) }, (_, i) => start + i));
}

/** Row-major strides-based accessor for expected values written as nested loops. */
export function at(t: Tensor, ...index: number[]): number {
  let offset = 0;
  for (let d = 0; d < index.length; d++) offset = offset * t.shape[d]! + index[d]!;
  return t.f32[offset]!;
}
