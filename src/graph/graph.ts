// The graph IR: nodes (operators) and values (operands). Every value has at most one producer and any
// number of consumers; the graph's inputs and outputs are the values of its pnnx.Input / pnnx.Output nodes.

import { GraphError } from '../errors.ts';
import type { DType, TypedArray } from '../tensor/dtype.ts';
import type { Shape } from '../tensor/shape.ts';
import type { Param } from './param.ts';

export const INPUT_TYPE = 'pnnx.Input';
export const OUTPUT_TYPE = 'pnnx.Output';

/** A weight or constant attached to a node (`@weight=(64,3,7,7)f32`); `data` is filled by the .bin loader. */
export interface Weight {
  /** null: PNNX's `null` suffix, an absent attribute. */
  readonly dtype: DType | null;
  readonly shape: Shape;
  data?: TypedArray;
}

/** A shape annotation as written in the file (`#3=(1,?,56,56)f32`); -1 marks a dynamic dim. */
export interface Annotation {
  readonly shape: Shape;
  readonly dtype: DType | null;
}

export class Value {
  producer: Node | undefined;
  readonly consumers: Node[] = [];
  /** What the file said about this operand, if anything. */
  annotation: Annotation | undefined;
  /** What shape inference computed (undefined until it ran). */
  shape: Shape | undefined;
  dtype: DType = 'f32';

  constructor(readonly name: string) {}
}

export interface NodeSource {
  readonly file: string;
  readonly line: number;
}

export class Node {
  readonly params = new Map<string, Param>();
  readonly weights = new Map<string, Weight>();
  /** `$key=operand`: which named argument of the torch call an input operand is. */
  readonly inputKeys = new Map<string, string>();
  source: NodeSource | undefined;

  constructor(
    readonly type: string,
    readonly name: string,
    readonly inputs: Value[],
    readonly outputs: Value[],
  ) {}
}

export interface NodeSpec {
  type: string;
  name: string;
  inputs: readonly Value[];
  outputs: readonly Value[];
  params?: Iterable<[string, Param]>;
  weights?: Iterable<[string, Weight]>;
  inputKeys?: Iterable<[string, string]>;
  source?: NodeSource;
}

export class Graph {
  readonly nodes: Node[] = [];
  readonly values = new Map<string, Value>();
  private readonly nodeNames = new Set<string>();

  /** `file` names the model in messages. */
  constructor(readonly file = '<memory>') {}

  /** The value called `name`, created if it does not exist yet. */
  value(name: string): Value {
    let v = this.values.get(name);
    if (!v) {
      v = new Value(name);
      this.values.set(name, v);
    }
    return v;
  }

  hasNode(name: string): boolean {
    return this.nodeNames.has(name);
  }

  /**
   * Adds a node (at position `at`, default: the end) and wires its values; throws if the name is taken or
   * an output already has a producer.
   */
  addNode(spec: NodeSpec, at = this.nodes.length): Node {
    if (this.nodeNames.has(spec.name)) throw new GraphError(`two nodes are named "${spec.name}"`);
    for (const out of spec.outputs) {
      if (out.producer) {
        throw new GraphError(`operand "${out.name}" is produced by both "${out.producer.name}" and "${spec.name}"`);
      }
    }
    const node = new Node(spec.type, spec.name, [...spec.inputs], [...spec.outputs]);
    for (const [k, p] of spec.params ?? []) node.params.set(k, p);
    for (const [k, w] of spec.weights ?? []) node.weights.set(k, w);
    for (const [k, v] of spec.inputKeys ?? []) node.inputKeys.set(k, v);
    node.source = spec.source;
    for (const v of node.inputs) v.consumers.push(node);
    for (const v of node.outputs) v.producer = node;
    this.nodes.splice(at, 0, node);
    this.nodeNames.add(node.name);
    return node;
  }

  /** Removes a node and unwires it; its outputs lose their producer. */
  removeNode(node: Node): void {
    const i = this.nodes.indexOf(node);
    if (i < 0) throw new GraphError(`node "${node.name}" is not in the graph`);
    this.nodes.splice(i, 1);
    this.nodeNames.delete(node.name);
    for (const v of node.inputs) {
      const c = v.consumers.indexOf(node);
      if (c >= 0) v.consumers.splice(c, 1);
    }
    for (const v of node.outputs) if (v.producer === node) v.producer = undefined;
  }

  /** Replaces every use of `from` by `to` (consumers are rewired; graph outputs follow). */
  replaceUses(from: Value, to: Value): void {
    for (const node of [...from.consumers]) {
      for (let i = 0; i < node.inputs.length; i++) if (node.inputs[i] === from) node.inputs[i] = to;
      for (const [k, name] of node.inputKeys) if (name === from.name) node.inputKeys.set(k, to.name);
      to.consumers.push(node);
    }
    from.consumers.length = 0;
  }

  /** Drops values that nothing produces or consumes. */
  pruneValues(): void {
    for (const [name, v] of this.values) if (!v.producer && v.consumers.length === 0) this.values.delete(name);
  }

  /** The graph's inputs, in the order of their pnnx.Input nodes. */
  get inputs(): Value[] {
    return this.nodes.filter((n) => n.type === INPUT_TYPE).flatMap((n) => n.outputs);
  }

  /** The graph's outputs, in the order of their pnnx.Output nodes. */
  get outputs(): Value[] {
    return this.nodes.filter((n) => n.type === OUTPUT_TYPE).flatMap((n) => n.inputs);
  }

  /** A node's position in `nodes`, for messages (`#12`). */
  indexOf(node: Node): number {
    return this.nodes.indexOf(node);
  }
}
