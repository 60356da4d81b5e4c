// Building the fast program of a graph whose shapes are inferred:
//
//   1. lower every node (ops/fast): steps to be built, scratch needs, or an alias of its input
//   2. give every stored value a view (NHWC for rank 4) and plan one slot's memory by liveness
//   3. lay out the arena: task ring, then `slots` slots, then weights and parameter blocks (built last,
//      since parameter blocks hold absolute addresses inside the slots)
//   4. order the steps: each waits for the steps that write what it reads, and, where the plan lets two
//      values share bytes, for the last readers of the earlier value (write-after-read)

import type { Graph, Node, Value } from '../../graph/graph.ts';
import { INPUT_TYPE, OUTPUT_TYPE } from '../../graph/graph.ts';
import { topologicalOrder } from '../../graph/order.ts';
import { planMemory, type BufferRequest, type MemoryPlan } from '../../graph/plan.ts';
import type { BoundOp } from '../../ops/op.ts';
import { lowerNode } from '../../ops/fast/index.ts';
import type { Arena } from '../../tensor/arena.ts';
import { numel } from '../../tensor/shape.ts';
import { FRAME_WORDS, frameBytes, ringBytes, type RingLayout, type Step } from '../../workers/protocol.ts';
import type { BuildContext, Lowered, PlannedStep } from './lowering.ts';
import { layoutFor, viewFloats, type TensorView } from './views.ts';

export interface ScheduledStep extends PlannedStep {
  /** Steps that must finish first (indices into `steps`). */
  readonly deps: readonly number[];
  /** The graph node it belongs to (undefined for input/output conversions). */
  readonly node: Node | undefined;
}

export interface BuiltProgram {
  readonly steps: readonly ScheduledStep[];
  readonly slotBases: readonly number[];
  readonly slotBytes: number;
  readonly plan: MemoryPlan;
  readonly ring: RingLayout;
  /** Where each graph input's NCHW data goes, and each output's NCHW data comes from (slot-relative). */
  readonly inputs: ReadonlyMap<Value, TensorView>;
  readonly outputs: ReadonlyMap<Value, TensorView>;
  readonly fastNodes: number;
  readonly fallbackNodes: readonly Node[];
}

interface Buffer {
  readonly id: number;
  readonly bytes: number;
  start: number;
  end: number;
}

export function buildProgram(graph: Graph, ops: ReadonlyMap<Node, BoundOp>, arena: Arena, slots: number, threads: number): BuiltProgram {
  const order = topologicalOrder(graph).filter((n) => n.type !== INPUT_TYPE && n.type !== OUTPUT_TYPE);

  // 1. Lowering.
  const root = new Map<Value, Value>();
  const rootOf = (v: Value): Value => root.get(v) ?? v;
  const lowered = new Map<Node, Lowered>();
  const fallbackNodes: Node[] = [];
  for (const node of order) {
    const { result, fast } = lowerNode(node, ops.get(node)!);
    if (!fast) fallbackNodes.push(node);
    if ('alias' in result) root.set(node.outputs[0]!, rootOf(result.alias));
    else lowered.set(node, result);
  }

  // 1b. Concatenation without copies: a producer that writes through a pixel stride and feeds only a
  //     channel concatenation writes straight into its slice of the concatenation's output.
  const sliceOf = planSlices(order, lowered, root);

  // 2. Step positions (for lifetimes): input conversions, node steps in order, output conversions.
  //    Buffers: one per stored value, NCHW staging for rank-4 inputs and outputs, node scratch.
  const buffers: Buffer[] = [];
  const bufferOf = new Map<Value, Buffer>();
  const staging = new Map<Value, Buffer>();
  const scratch = new Map<Node, Buffer[]>();
  const newBuffer = (floats: number, start: number): Buffer => {
    const b = { id: buffers.length, bytes: floats * 4, start, end: start };
    buffers.push(b);
    return b;
  };
  const view0 = (v: Value): TensorView => ({ offset: 0, shape: v.shape!, layout: layoutFor(v.shape!), pixelStride: v.shape!.length === 4 ? v.shape![1]! : 1 });
  // Positions: input i converts at i, then one per lowered node, then the output conversions.
  let position = 0;
  for (const input of graph.inputs) {
    bufferOf.set(input, newBuffer(viewFloats(view0(input)), position));
    // NCHW staging: written by the main thread before the frame starts, read by the conversion.
    if (input.shape!.length === 4) staging.set(input, Object.assign(newBuffer(numel(input.shape!), -1), { end: position }));
    position++;
  }
  const nodeStart = new Map<Node, number>();
  for (const node of order) {
    const l = lowered.get(node);
    if (!l) continue;
    nodeStart.set(node, position);
    for (const v of node.outputs) {
      const slice = sliceOf.get(v);
      if (slice && !bufferOf.has(slice.whole)) bufferOf.set(slice.whole, newBuffer(viewFloats(view0(slice.whole)), position));
      if (!bufferOf.has(v)) bufferOf.set(v, slice ? bufferOf.get(slice.whole)! : newBuffer(viewFloats(view0(v)), position));
    }
    scratch.set(node, (l.scratch ?? []).map((bytes) => newBuffer(Math.ceil(bytes / 4), position)));
    position++;
  }
  const readAt = (v: Value, at: number) => {
    const b = bufferOf.get(rootOf(v))!;
    b.end = Math.max(b.end, at);
  };
  for (const node of order) if (lowered.has(node)) for (const v of node.inputs) readAt(v, nodeStart.get(node)!);
  for (const output of graph.outputs) {
    // Outputs are read by the main thread after the frame: they live to the end.
    readAt(output, Infinity);
    if (output.shape!.length === 4) staging.set(output, Object.assign(newBuffer(numel(output.shape!), position), { end: Infinity }));
  }
  const requests: BufferRequest[] = buffers.map((b) => ({ id: b.id, bytes: b.bytes, start: b.start, end: b.end }));
  const plan = planMemory(requests, 64);

  // 3. Arena: ring, slots, then the lowered nodes' weights and parameter blocks.
  const ringBase = arena.alloc(ringBytes(threads), 64);
  const slotBytes = Math.max(64, plan.bytes);
  const slotBases = Array.from({ length: slots }, () => arena.alloc(slotBytes, 64));
  const offsetOf = (b: Buffer) => plan.offsets.get(b.id)!;
  const viewOf = (v: Value): TensorView => {
    const slice = sliceOf.get(v);
    const offset = offsetOf(bufferOf.get(rootOf(v))!);
    if (!slice) return { ...view0(v), offset };
    return { offset: offset + 4 * slice.channelOffset, shape: v.shape!, layout: 'nhwc', pixelStride: slice.whole.shape![1]! };
  };
  const plainView = (v: Value, b: Buffer): TensorView => ({ offset: offsetOf(b), shape: v.shape!, layout: 'plain', pixelStride: 1 });

  // 4. Steps and their dependencies.
  const steps: ScheduledStep[] = [];
  // A buffer holds one value (and, for a concatenation, the slices its producers write): its writers are
  // every step that writes any part of it, and a reader waits for all of them.
  const writers = new Map<Buffer, number[]>();
  const readers = new Map<Buffer, number[]>();
  const add = (s: PlannedStep, node: Node | undefined, reads: Buffer[], writes: Buffer[], after: number[]): number => {
    const deps = new Set(after);
    for (const b of reads) for (const w of writers.get(b) ?? []) deps.add(w);
    const index = steps.length;
    // Write-after-read: the earlier tenants of these bytes must be fully read first.
    for (const b of writes) {
      for (const other of sharers(b)) {
        for (const r of readers.get(other) ?? []) deps.add(r);
        for (const w of writers.get(other) ?? []) deps.add(w);
      }
    }
    for (const b of writes) writers.set(b, [...(writers.get(b) ?? []), index]);
    for (const b of reads) readers.set(b, [...(readers.get(b) ?? []), index]);
    steps.push({ ...s, deps: [...deps].filter((d) => d !== index).sort((a, b) => a - b), node });
    return index;
  };
  const overlapsBytes = (a: Buffer, b: Buffer) => offsetOf(a) < offsetOf(b) + b.bytes && offsetOf(b) < offsetOf(a) + a.bytes;
  const sharers = (b: Buffer) => buffers.filter((o) => o !== b && o.end < b.start && overlapsBytes(o, b));

  const inputs = new Map<Value, TensorView>();
  for (const input of graph.inputs) {
    const target = bufferOf.get(input)!;
    const stage = staging.get(input);
    if (!stage) {
      inputs.set(input, viewOf(input));
      continue;
    }
    const src = plainView(input, stage);
    inputs.set(input, src);
    const dst = viewOf(input);
    const step: Step = { kind: 'to-nhwc', label: `input "${input.name}"`, src, dst, rowsPerTile: rowsPerTile(dst, threads) };
    add({ step, tiles: Math.ceil(dst.shape[0]! * dst.shape[2]! / step.rowsPerTile) }, undefined, [stage], [target], []);
  }
  const ctxFor = (node: Node): BuildContext => ({
    arena, slotBases, threads,
    view: viewOf,
    scratch: (i) => {
      const b = scratch.get(node)![i]!;
      return { offset: offsetOf(b), shape: [b.bytes / 4], layout: 'plain', pixelStride: 1 };
    },
  });
  for (const node of order) {
    const l = lowered.get(node);
    if (!l) continue;
    const reads = node.inputs.map((v) => bufferOf.get(rootOf(v))!).filter(Boolean);
    const writes = [...node.outputs.map((v) => bufferOf.get(v)!), ...(scratch.get(node) ?? [])];
    let previous: number[] = [];
    for (const s of l.build(ctxFor(node))) previous = [add(s, node, [...reads, ...(scratch.get(node) ?? [])], writes, previous)];
  }
  const outputs = new Map<Value, TensorView>();
  for (const output of graph.outputs) {
    const stage = staging.get(output);
    if (!stage) {
      outputs.set(output, viewOf(output));
      continue;
    }
    const src = viewOf(output);
    const dst = plainView(output, stage);
    outputs.set(output, dst);
    const step: Step = { kind: 'to-nchw', label: `output "${output.name}"`, src, dst, rowsPerTile: rowsPerTile(src, threads) };
    add({ step, tiles: Math.ceil(src.shape[0]! * src.shape[2]! / step.rowsPerTile) }, undefined, [bufferOf.get(rootOf(output))!], [stage], []);
  }
  const timingBase = arena.alloc(threads * slots * steps.length * 8, 64);
  const frameBase = arena.alloc(frameBytes(slots, steps.length), 64);
  const ring: RingLayout = {
    ringBase, errorBase: ringBase + ringBytes(0), workers: threads, timingBase, slots, steps: steps.length,
    frameBase, remainingBase: frameBase + slots * FRAME_WORDS * 4,
  };
  return { steps, slotBases, slotBytes, plan, ring, inputs, outputs, fastNodes: order.length - fallbackNodes.length, fallbackNodes };
}

const CONCATS = new Set(['torch.cat', 'torch.concat']);

/**
 * Which values are written straight into a channel slice of a concatenation's output (along dim 1 of rank
 * 4): those whose producer, and every other consumer, are lowered with `stridedViews`, and that are not a
 * graph output. The concatenation then copies only the other inputs (ops/fast/cat.ts skips pieces
 * already in place).
 */
function planSlices(order: readonly Node[], lowered: ReadonlyMap<Node, Lowered>, root: ReadonlyMap<Value, Value>): Map<Value, { whole: Value; channelOffset: number }> {
  const slices = new Map<Value, { whole: Value; channelOffset: number }>();
  for (const cat of order) {
    const whole = cat.outputs[0];
    const dim = cat.params.get('dim');
    if (!CONCATS.has(cat.type) || !lowered.has(cat) || !whole || whole.shape!.length !== 4 || dim?.kind !== 'int') continue;
    if ((dim.value + 4) % 4 !== 1 || slices.has(whole) || root.has(whole)) continue;
    let channelOffset = 0;
    for (const v of cat.inputs) {
      const producer = v.producer;
      const readersCope = v.consumers.every((c) => c === cat || lowered.get(c)?.stridedViews);
      const once = v.consumers.filter((c) => c === cat).length === 1;
      const eligible = producer && lowered.get(producer)?.stridedViews && producer.outputs.length === 1 &&
        !root.has(v) && readersCope && once && v.dtype === 'f32' && v.shape!.length === 4;
      if (eligible) slices.set(v, { whole, channelOffset });
      channelOffset += v.shape![1]!;
    }
  }
  return slices;
}

/** NHWC rows (of W pixels) per tile of a layout conversion: about 8 tiles per thread, at least 1 row. */
function rowsPerTile(v: TensorView, threads: number): number {
  const rows = v.shape[0]! * v.shape[2]!;
  return Math.max(1, Math.ceil(rows / (8 * threads)));
}
