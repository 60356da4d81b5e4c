// What an operator family provides: the PNNX types it handles and, per node, a binding made once at
// load (params parsed with PyTorch's defaults, weights checked) that knows the node's shape rule,
// its cost and its plain-TypeScript reference implementation.

import type { Node } from '../graph/graph.ts';
import type { DType } from '../tensor/dtype.ts';
import type { Shape } from '../tensor/shape.ts';
import type { Tensor } from '../tensor/tensor.ts';
import type { SeededRandom } from '../tensor/random.ts';

/** What shape inference knows about one operand. */
export interface ShapeInfo {
  readonly shape: Shape;
  readonly dtype: DType;
}

/** An operator bound to one node: params already parsed, nothing re-read at run time. */
export interface BoundOp {
  /** Output shapes and dtypes from the input ones; throws a NodeError naming what does not fit. */
  infer(inputs: readonly ShapeInfo[]): ShapeInfo[];
  /** Multiply-accumulates of one run with these shapes (0 for ops that only move data). */
  macs(inputs: readonly ShapeInfo[], outputs: readonly ShapeInfo[]): number;
  /** The reference implementation: slow, obviously right; the oracle the fast kernels are held to. */
  reference(inputs: readonly Tensor[]): Tensor[];
}

export interface OpDef {
  /** PNNX operator types this family handles, e.g. `nn.Conv2d`. */
  readonly types: readonly string[];
  /** Parses and checks the node's params and weights; throws a NodeError if they are missing or invalid. */
  bind(node: Node): BoundOp;
  /**
   * Fills the node's declared weights with seeded values that keep a deep net's activations finite
   * (`flowinfer init-weights`); ops without it get small normal values.
   */
  initWeights?(node: Node, random: SeededRandom): void;
}

/** The output of shape-preserving ops. */
export const sameAsInput = (inputs: readonly ShapeInfo[]): ShapeInfo[] => [{ shape: inputs[0]!.shape, dtype: inputs[0]!.dtype }];

export const noMacs = (): number => 0;
