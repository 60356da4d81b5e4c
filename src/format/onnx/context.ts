// What an op's exporter sees of one node: the builder, the node's params (read with PyTorch's defaults by
// the same ParamReader the ops use), the ONNX names and inferred shapes of its operands, and its weights
// as initializers named `<node>.<weight>`.

import type { Node, Value } from '../../graph/graph.ts';
import { ParamReader } from '../../ops/params.ts';
import type { DType } from '../../tensor/dtype.ts';
import type { Shape } from '../../tensor/shape.ts';
import type { OnnxGraphBuilder } from './builder.ts';
import { Inexpressible } from './errors.ts';

export class NodeContext {
  readonly p: ParamReader;
  private readonly weights = new Map<string, string>();

  constructor(
    readonly b: OnnxGraphBuilder,
    readonly node: Node,
    private readonly names: ReadonlyMap<Value, string>,
  ) {
    this.p = new ParamReader(node);
  }

  /** The prefix of this node's intermediate tensor names. */
  get base(): string {
    return this.node.name;
  }

  input(i: number): string {
    return this.nameOf(this.node.inputs[i], `input ${i}`);
  }

  output(i = 0): string {
    return this.nameOf(this.node.outputs[i], `output ${i}`);
  }

  inputShape(i: number): Shape {
    return this.node.inputs[i]!.shape!;
  }

  outputShape(i = 0): Shape {
    return this.node.outputs[i]!.shape!;
  }

  inputDType(i: number): DType {
    return this.node.inputs[i]!.dtype;
  }

  outputDType(i = 0): DType {
    return this.node.outputs[i]!.dtype;
  }

  /** The node's weight `key` widened to float32, as an initializer (written once per key). */
  weight(key: string, shape?: Shape): string {
    let name = this.weights.get(key);
    if (name === undefined) {
      const data = this.p.weightF32(key);
      name = this.b.f32(`${this.node.name}.${key}`, shape ?? this.p.weightShape(key)!, data);
      this.weights.set(key, name);
    }
    return name;
  }

  /** Stops exporting this node: its params have no ONNX form. Collected into the one OnnxExportError. */
  fail(reason: string): never {
    throw new Inexpressible(reason);
  }

  private nameOf(value: Value | undefined, what: string): string {
    const name = value === undefined ? undefined : this.names.get(value);
    if (name === undefined) throw new Error(`${this.node.type} node "${this.node.name}": ${what} has no ONNX name`);
    return name;
  }
}

/** Writes one node's ONNX nodes; the last one must produce ctx.output(i) for every output i. */
export type OpExporter = (ctx: NodeContext) => void;

/** An operator family's exporter and the PNNX types it handles. */
export interface ExportFamily {
  readonly types: readonly string[];
  readonly export: OpExporter;
}
