// Lowering: each graph node becomes one or more program steps (protocol.ts). It happens in two phases
// because a step's numbers depend on where its tensors live, and where they live depends on the scratch
// space every node asks for:
//
//   1. lower(node) → { scratch: bytes[], build }     every node, before the memory plan
//   2. build(ctx)  → PlannedStep[]                   after the plan: views and scratch are placed
//
// A node whose lowering returns `alias` produces no step: its output shares its input's bytes
// (flatten of (N,C,1,1), identity, dropout).

import type { Node, Value } from '../../graph/graph.ts';
import type { BoundOp } from '../../ops/op.ts';
import type { Arena } from '../../tensor/arena.ts';
import type { Step } from '../../workers/protocol.ts';
import type { TensorView } from './views.ts';

export interface BuildContext {
  readonly arena: Arena;
  /** Slots (frames in flight) and each slot's base byte offset. */
  readonly slotBases: readonly number[];
  readonly threads: number;
  view(v: Value): TensorView;
  /** The node's i-th scratch region, as a plain float view of `bytes / 4` floats. */
  scratch(i: number): TensorView;
}

/** A step and how many tiles the workers split it into. Steps of one node run one after another. */
export interface PlannedStep {
  readonly step: Step;
  readonly tiles: number;
}

export interface Lowered {
  /** Bytes of scratch space (per slot) the steps need while the node runs. */
  readonly scratch?: readonly number[];
  /**
   * The steps read and write NHWC views through their pixel strides (any stride >= C), so an input or the
   * output may be a channel slice of a wider tensor: a concatenation's producers then write straight
   * into its slices, and other readers of those values read them there.
   */
  readonly stridedViews?: boolean;
  build(ctx: BuildContext): PlannedStep[];
}

export type LoweringResult = Lowered | { readonly alias: Value };

/** A fast lowering for some node types; returns undefined when this node's params or shapes are not covered. */
export type Lowering = (node: Node, op: BoundOp) => LoweringResult | undefined;

export const label = (node: Node) => `${node.type} "${node.name}"`;
