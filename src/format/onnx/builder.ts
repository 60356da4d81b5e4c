// Accumulates an ONNX graph: nodes in emission order (which is topological, as each op is written after its
// inputs), initializers, and one namespace of unique tensor names. Ops read like the ONNX operator table:
//   const y = b.op('Clip', [x, b.scalar(0), b.scalar(6)], {}, 'relu6');

import type { DType, TypedArray } from '../../tensor/dtype.ts';
import type { Shape } from '../../tensor/shape.ts';
import { onnx, type AttributeProto, type NodeProto, type TensorProto } from './proto.ts';
import { tensorProto } from './tensor.ts';

const A = onnx.AttributeProto.AttributeType;

/** An attribute value, tagged with its ONNX type (a bare number could be an INT or a FLOAT). */
export type Attr =
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'ints'; readonly value: readonly number[] }
  | { readonly type: 'floats'; readonly value: readonly number[] };

export const attr = {
  int: (value: number): Attr => ({ type: 'int', value }),
  float: (value: number): Attr => ({ type: 'float', value }),
  string: (value: string): Attr => ({ type: 'string', value }),
  ints: (value: readonly number[]): Attr => ({ type: 'ints', value }),
  floats: (value: readonly number[]): Attr => ({ type: 'floats', value }),
};

function attributeProto(name: string, a: Attr): AttributeProto {
  switch (a.type) {
    case 'int': return { name, type: A.INT, i: a.value };
    case 'float': return { name, type: A.FLOAT, f: a.value };
    case 'string': return { name, type: A.STRING, s: new TextEncoder().encode(a.value) };
    case 'ints': return { name, type: A.INTS, ints: [...a.value] };
    case 'floats': return { name, type: A.FLOATS, floats: [...a.value] };
  }
}

export class OnnxGraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly initializers: TensorProto[] = [];
  private readonly used = new Set<string>();
  private readonly scalars = new Map<string, string>();

  /** Claims `name` exactly (graph inputs, outputs, operands); throws if it is taken. */
  reserve(name: string): string {
    if (this.used.has(name)) throw new Error(`ONNX tensor name "${name}" is used twice`);
    this.used.add(name);
    return name;
  }

  /** A new name starting with `base` (`base`, `base_1`, `base_2`, ...). */
  fresh(base: string): string {
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }

  /**
   * Appends a node; `outputs` are given names, or a count of fresh ones derived from `base`.
   * Returns the output names. An empty input name marks an omitted optional input.
   */
  ops(opType: string, inputs: readonly string[], attrs: Readonly<Record<string, Attr>>, base: string, outputs: readonly string[] | number = 1): string[] {
    const names = typeof outputs === 'number'
      ? Array.from({ length: outputs }, (_, i) => this.fresh(outputs === 1 ? `${base}:${opType}` : `${base}:${opType}_out${i}`))
      : [...outputs];
    this.nodes.push(onnx.NodeProto.create({
      name: this.fresh(`${base}:${opType}#node`),
      opType,
      input: [...inputs],
      output: names,
      attribute: Object.entries(attrs).map(([k, v]) => attributeProto(k, v)),
    }));
    return names;
  }

  /** A one-output node; `output` is its given name, else a fresh one from `base`. */
  op(opType: string, inputs: readonly string[], attrs: Readonly<Record<string, Attr>>, base: string, output?: string): string {
    return this.ops(opType, inputs, attrs, base, output === undefined ? 1 : [output])[0]!;
  }

  /** An initializer named `name` exactly (already reserved) or fresh from `base`. */
  initializer(base: string, dtype: DType, shape: Shape, data: TypedArray, exact = false): string {
    const name = exact ? base : this.fresh(base);
    this.initializers.push(tensorProto(name, dtype, shape, data));
    return name;
  }

  /** A float32 constant. */
  f32(base: string, shape: Shape, data: Float32Array | readonly number[]): string {
    return this.initializer(base, 'f32', shape, data instanceof Float32Array ? data : Float32Array.from(data));
  }

  /** A 1-D int64 constant (shapes, axes, pads, sizes). */
  i64(base: string, values: readonly number[]): string {
    return this.initializer(base, 'i64', [values.length], BigInt64Array.from(values.map((v) => BigInt(v))));
  }

  /** Slice (opset 13+: bounds, axes and steps as int64 inputs). */
  slice(base: string, x: string, starts: readonly number[], ends: readonly number[], axes: readonly number[], steps?: readonly number[], out?: string): string {
    const inputs = [x, this.i64(`${base}.starts`, starts), this.i64(`${base}.ends`, ends), this.i64(`${base}.axes`, axes)];
    if (steps) inputs.push(this.i64(`${base}.steps`, steps));
    return this.op('Slice', inputs, {}, base, out);
  }

  /** A 0-d constant of the given dtype, shared by every use of the same value. */
  scalar(value: number, dtype: 'f32' | 'i32' | 'i64' = 'f32'): string {
    const key = `${dtype}:${Object.is(value, -0) ? '-0' : String(value)}`;
    let name = this.scalars.get(key);
    if (name === undefined) {
      const data = dtype === 'f32' ? Float32Array.of(value) : dtype === 'i32' ? Int32Array.of(value) : BigInt64Array.of(BigInt(value));
      name = this.initializer(`const_${dtype}_${String(value).replace(/[^\w.-]/g, '_')}`, dtype, [], data);
      this.scalars.set(key, name);
    }
    return name;
  }
}
