// Building PNNX graphs in code, node by node, with shapes inferred as they are added (so every operand
// carries the annotation pnnx would have written). The zoo's models are written with it.

import { Graph, type Node, type Value, type Weight } from '../graph/graph.ts';
import { P, type Param } from '../graph/param.ts';
import type { OpRegistry } from '../ops/registry.ts';
import { defaultRegistry } from '../ops/registry.ts';
import type { Shape } from '../tensor/shape.ts';

export interface ConvOptions {
  readonly kernel: number;
  readonly stride?: number;
  readonly padding?: number;
  readonly groups?: number;
  readonly dilation?: number;
  readonly bias?: boolean;
  readonly name?: string;
}

export class GraphBuilder {
  readonly graph: Graph;
  private operands = 0;
  private readonly counters = new Map<string, number>();

  constructor(name: string, private readonly registry: OpRegistry = defaultRegistry) {
    this.graph = new Graph(name);
  }

  /** `prefix_N` with N counting per prefix, as pnnx numbers generated names. */
  uniqueName(prefix: string): string {
    const n = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, n + 1);
    return `${prefix}_${n}`;
  }

  private newValue(): Value {
    return this.graph.value(String(this.operands++));
  }

  /** Adds a node and infers its outputs' shapes from its inputs'. */
  add(type: string, name: string, inputs: readonly Value[], params: Record<string, Param> = {}, weights: Record<string, Shape> = {}, outputCount = 1): Value[] {
    const outputs = Array.from({ length: outputCount }, () => this.newValue());
    const weightEntries = Object.entries(weights).map(([k, shape]): [string, Weight] => [k, { dtype: 'f32', shape }]);
    const node: Node = this.graph.addNode({ type, name, inputs, outputs, params: Object.entries(params), weights: weightEntries });
    const inferred = this.registry.get(type)!.bind(node).infer(inputs.map((v) => ({ shape: v.shape!, dtype: v.dtype })));
    outputs.forEach((v, i) => {
      v.shape = inferred[i]!.shape;
      v.dtype = inferred[i]!.dtype;
      v.annotation = { shape: v.shape, dtype: v.dtype };
    });
    return outputs;
  }

  input(shape: Shape): Value {
    const v = this.newValue();
    const node = this.graph.addNode({ type: 'pnnx.Input', name: this.uniqueName('pnnx_input'), inputs: [], outputs: [v] });
    v.shape = [...shape];
    v.annotation = { shape: v.shape, dtype: 'f32' };
    void node;
    return v;
  }

  output(v: Value): void {
    this.graph.addNode({ type: 'pnnx.Output', name: this.uniqueName('pnnx_output'), inputs: [v], outputs: [] });
  }

  conv(x: Value, outChannels: number, o: ConvOptions): Value {
    const inChannels = x.shape![1]!;
    const groups = o.groups ?? 1;
    const bias = o.bias ?? true;
    const params: Record<string, Param> = {
      bias: P.bool(bias),
      dilation: P.ints([o.dilation ?? 1, o.dilation ?? 1]),
      groups: P.int(groups),
      in_channels: P.int(inChannels),
      kernel_size: P.ints([o.kernel, o.kernel]),
      out_channels: P.int(outChannels),
      padding: P.ints([o.padding ?? 0, o.padding ?? 0]),
      padding_mode: P.string('zeros'),
      stride: P.ints([o.stride ?? 1, o.stride ?? 1]),
    };
    const weights: Record<string, Shape> = { weight: [outChannels, inChannels / groups, o.kernel, o.kernel] };
    if (bias) weights.bias = [outChannels];
    return this.add('nn.Conv2d', o.name ?? this.uniqueName('convbn2d'), [x], params, weights)[0]!;
  }

  /** An activation module such as nn.ReLU. */
  act(type: string, x: Value, name: string): Value {
    return this.add(type, name, [x])[0]!;
  }

  maxPool(x: Value, kernel: number, stride: number, padding: number, name: string): Value {
    return this.add('nn.MaxPool2d', name, [x], {
      ceil_mode: P.bool(false),
      dilation: P.ints([1, 1]),
      kernel_size: P.ints([kernel, kernel]),
      padding: P.ints([padding, padding]),
      return_indices: P.bool(false),
      stride: P.ints([stride, stride]),
    })[0]!;
  }

  adaptiveAvgPool(x: Value, type: 'nn.AdaptiveAvgPool2d' | 'F.adaptive_avg_pool2d', name: string): Value {
    return this.add(type, name, [x], { output_size: P.ints([1, 1]) })[0]!;
  }

  flatten(x: Value, startDim: number): Value {
    return this.add('torch.flatten', this.uniqueName('torch.flatten'), [x], { end_dim: P.int(-1), start_dim: P.int(startDim) })[0]!;
  }

  linear(x: Value, outFeatures: number, name: string): Value {
    const inFeatures = x.shape![x.shape!.length - 1]!;
    return this.add('nn.Linear', name, [x], { bias: P.bool(true), in_features: P.int(inFeatures), out_features: P.int(outFeatures) },
      { bias: [outFeatures], weight: [outFeatures, inFeatures] })[0]!;
  }

  expression(expr: string, inputs: readonly Value[]): Value {
    return this.add('pnnx.Expression', this.uniqueName('pnnx_expr'), inputs, { expr: P.string(expr) })[0]!;
  }

  cat(inputs: readonly Value[], dim: number): Value {
    return this.add('torch.cat', this.uniqueName('torch.cat'), inputs, { dim: P.int(dim) })[0]!;
  }

  upsampleNearest(x: Value, scale: number, name: string): Value {
    return this.add('nn.Upsample', name, [x], { mode: P.string('nearest'), scale_factor: P.floats([scale, scale]), size: P.null() })[0]!;
  }
}
