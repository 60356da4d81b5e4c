// What a converter sees while one ONNX graph is translated: every ONNX tensor is either a run-time value of
// the flowinfer graph or a constant known at load (initializers, Constant nodes, and everything computed
// from constants alone, shapes included). `op` adds a PNNX node, binds it and infers its output shapes at
// once, or, when all its inputs are constants, runs its reference and keeps the result as a constant:
// that is the import-time constant folding (ConstantOfShape weights, Transpose of weights, shape math).
//
// A second translation of the same model at other input sizes (the probe, see import.ts) tells which
// values depend on the input size: converters ask `probe(name)` to keep a graph shape-agnostic.

import { NodeError } from '../../../errors.ts';
import { Graph, Node, type Value, type Weight } from '../../../graph/graph.ts';
import type { Param } from '../../../graph/param.ts';
import { defaultRegistry } from '../../../ops/registry.ts';
import { toFloat32 } from '../../../tensor/dtype.ts';
import type { Shape } from '../../../tensor/shape.ts';
import { Tensor } from '../../../tensor/tensor.ts';
import type { Attrs } from './attributes.ts';
import { Unsupported } from './errors.ts';
import { tensorNumbers } from './tensor.ts';

export type Operand =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'const'; readonly tensor: Tensor };

export const constant = (tensor: Tensor): Operand => ({ kind: 'const', tensor });

/** One ONNX node as converters read it. Omitted optional inputs and outputs are ''. */
export interface OnnxNode {
  /** A unique base for the names of the PNNX nodes it becomes. */
  readonly name: string;
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attrs: Attrs;
  /** The model's default-domain opset: converters follow the operator's definition at this version. */
  readonly opset: number;
}

/** What the probe translation knew about an ONNX tensor: its shape, and its values if it was a constant. */
export interface Probed {
  readonly shape: Shape;
  readonly values?: readonly number[];
}

export interface OpOptions {
  readonly params?: Iterable<[string, Param]>;
  readonly weights?: Iterable<[string, Weight]>;
  /** ONNX names for the outputs (their values take these names), or how many fresh outputs. */
  readonly outputs?: readonly string[] | number;
  /** Distinguishes the PNNX nodes one ONNX node becomes (`conv.pad`). */
  readonly suffix?: string;
}

export class ImportContext {
  readonly graph: Graph;
  private readonly table = new Map<string, Operand>();
  private readonly attributeValues = new Map<Tensor, Value>();
  private readonly reservedValues: ReadonlySet<string>;
  private readonly reservedNodes = new Set<string>();
  /** Where the graph was made for fixed input sizes although ONNX was not (see import.ts). */
  readonly specialised: string[] = [];
  current: OnnxNode | undefined;

  constructor(
    file: string,
    readonly opset: number,
    onnxNames: Iterable<string>,
    /** How many ONNX nodes read each tensor (graph outputs count once). */
    readonly consumers: ReadonlyMap<string, number>,
    private readonly probed: ReadonlyMap<string, Probed> | undefined,
  ) {
    this.graph = new Graph(file);
    this.reservedValues = new Set(onnxNames);
  }

  has(name: string): boolean {
    return name !== '' && this.table.has(name);
  }

  get(name: string): Operand {
    const o = this.table.get(name);
    if (!o) throw new Error(`ONNX tensor "${name}" has no value yet`);
    return o;
  }

  set(name: string, operand: Operand): void {
    this.table.set(name, operand);
  }

  /** Input `i` of the current node, or undefined when it is omitted. */
  input(node: OnnxNode, i: number): Operand | undefined {
    const name = node.inputs[i];
    return name ? this.get(name) : undefined;
  }

  /** Input `i`, which must be known at load (a weight, a shape, a constant). */
  constantInput(node: OnnxNode, i: number, what: string): Tensor | undefined {
    const o = this.input(node, i);
    if (!o) return undefined;
    if (o.kind !== 'const') throw new Unsupported(`${what} (input ${i}, "${node.inputs[i]}") is computed at run time; flowinfer needs it known at load`);
    return o.tensor;
  }

  /** A constant input's values as numbers. */
  numbersInput(node: OnnxNode, i: number, what: string): number[] | undefined {
    const t = this.constantInput(node, i, what);
    return t ? tensorNumbers(t) : undefined;
  }

  shapeOf(o: Operand): Shape {
    return o.kind === 'const' ? o.tensor.shape : o.value.shape!;
  }

  /** What the probe translation saw for an ONNX tensor (undefined for models with static shapes). */
  probe(name: string): Probed | undefined {
    return this.probed?.get(name);
  }

  /** Every ONNX tensor's shape (and values when constant), for the other translation to compare with. */
  snapshot(): Map<string, Probed> {
    const out = new Map<string, Probed>();
    for (const [name, o] of this.table) {
      if (o.kind === 'const') out.set(name, { shape: o.tensor.shape, values: o.tensor.size <= 64 ? tensorNumbers(o.tensor) : undefined });
      else if (o.value.shape) out.set(name, { shape: o.value.shape });
    }
    return out;
  }

  /** A value name not used by the ONNX model or by anything made so far. */
  freshValue(base: string): Value {
    let name = base;
    for (let i = 1; this.graph.values.has(name) || this.reservedValues.has(name); i++) name = `${base}_${i}`;
    return this.graph.value(name);
  }

  freshNodeName(base: string): string {
    let name = base;
    for (let i = 1; this.graph.hasNode(name) || this.reservedNodes.has(name); i++) name = `${base}_${i}`;
    return name;
  }

  /** Keeps node names (the graph's output names) for nodes made last. */
  reserveNodeNames(names: Iterable<string>): void {
    for (const n of names) this.reservedNodes.add(n);
  }

  releaseNodeName(name: string): void {
    this.reservedNodes.delete(name);
  }

  /** A run-time value for an operand: constants become pnnx.Attribute nodes (one per tensor). */
  valueOf(o: Operand, hint = 'const'): Value {
    if (o.kind === 'value') return o.value;
    let v = this.attributeValues.get(o.tensor);
    if (!v) {
      const t = o.tensor;
      // The engines compute in float32: wider or narrower float constants are stored as f32.
      const floaty = t.dtype === 'f64' || t.dtype === 'f16' || t.dtype === 'bf16';
      const data = floaty ? Float32Array.from(toFloat32(t.dtype, t.data)) : t.data;
      v = this.freshValue(hint);
      const node = this.graph.addNode({
        type: 'pnnx.Attribute', name: this.freshNodeName(hint), inputs: [], outputs: [v],
        weights: [['data', { dtype: floaty ? 'f32' : t.dtype, shape: [...t.shape], data }]],
      });
      this.infer(node);
      this.attributeValues.set(t, v);
    }
    return v;
  }

  /**
   * Adds a `type` node over `inputs` (binding it and inferring its outputs now), or, when every input is a
   * constant, computes it with the op's reference and returns constants.
   */
  op(type: string, inputs: readonly Operand[], options: OpOptions = {}): Operand[] {
    const base = this.current?.name ?? type;
    const nodeName = this.freshNodeName(options.suffix ? `${base}.${options.suffix}` : base);
    const outNames = options.outputs ?? 1;
    const outputCount = typeof outNames === 'number' ? outNames : outNames.length;
    const foldable = inputs.length > 0 && inputs.every((o) => o.kind === 'const');
    if (foldable) {
      const scratch = new Graph('<fold>');
      const node = scratch.addNode({
        type, name: nodeName, inputs: inputs.map((_, i) => scratch.value(`in${i}`)),
        outputs: Array.from({ length: outputCount }, (_, i) => scratch.value(`out${i}`)),
        params: options.params, weights: options.weights,
      });
      const results = this.guard(node, () => this.bind(node).reference(inputs.map((o) => (o as { tensor: Tensor }).tensor)));
      return results.map(constant);
    }
    const outputs = Array.from({ length: outputCount }, (_, i) =>
      typeof outNames === 'number' ? this.freshValue(`${nodeName}.out${i}`) : this.valueForOnnx(outNames[i]!, `${nodeName}.out${i}`));
    const node = this.graph.addNode({
      type, name: nodeName, inputs: inputs.map((o) => this.valueOf(o)), outputs,
      params: options.params, weights: options.weights,
    });
    try {
      this.infer(node);
    } catch (e) {
      this.graph.removeNode(node);
      for (const v of outputs) this.graph.values.delete(v.name);
      throw e;
    }
    return outputs.map((value) => ({ kind: 'value', value }));
  }

  /** A one-output `op`. */
  op1(type: string, inputs: readonly Operand[], options: OpOptions = {}): Operand {
    return this.op(type, inputs, options)[0]!;
  }

  /** The value named after an ONNX tensor (a fresh one if the name is taken, e.g. by an input node). */
  private valueForOnnx(name: string, fallback: string): Value {
    if (name && !this.graph.values.has(name)) return this.graph.value(name);
    return this.freshValue(name || fallback);
  }

  private bind(node: Node) {
    const def = defaultRegistry.get(node.type);
    if (!def) throw new Error(`the importer made a ${node.type} node, which the registry lacks`);
    return def.bind(node);
  }

  /** Binds the node and sets its outputs' shapes; a rejected node becomes an Unsupported problem. */
  private infer(node: Node): void {
    this.guard(node, () => {
      const shapes = this.bind(node).infer(node.inputs.map((v) => ({ shape: v.shape!, dtype: v.dtype })));
      node.outputs.forEach((v, i) => {
        v.shape = shapes[i]!.shape;
        v.dtype = shapes[i]!.dtype;
      });
    });
  }

  private guard<T>(node: Node, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof NodeError) throw new Unsupported(`as ${node.type}: ${e.problem}`);
      throw e;
    }
  }

  /** Notes that the graph holds a value computed for the current input sizes only. */
  specialise(what: string): void {
    this.specialised.push(`${this.current?.opType ?? ''} node "${this.current?.name ?? ''}": ${what}`);
  }
}

/** Translates one ONNX node: sets an operand for each output it produces. */
export type Converter = (ctx: ImportContext, node: OnnxNode) => void;
