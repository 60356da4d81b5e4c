// Nodes that need no work on the fast path: their output is their input's bytes under another shape.
// A flatten or reshape is free when the input is stored plain (row-major), or NHWC with 1x1 pixels
// (then NHWC and NCHW orders coincide); identity and dropout are always free.

import type { Node } from '../../graph/graph.ts';
import type { LoweringResult } from '../../runtime/fast/lowering.ts';

const sameBytes = (node: Node) => {
  const s = node.inputs[0]!.shape!;
  return s.length !== 4 || (s[2] === 1 && s[3] === 1);
};

export function lowerAlias(node: Node): LoweringResult | undefined {
  if (node.inputs.length < 1 || node.outputs.length !== 1 || node.inputs[0]!.dtype !== node.outputs[0]!.dtype) return undefined;
  const out = node.outputs[0]!.shape!;
  // The output is stored by its own rank: a rank-4 output must come from bytes already in NHWC order.
  if (out.length === 4 && node.inputs[0]!.shape!.length !== 4) return undefined;
  if (out.length === 4 && !(out[2] === 1 && out[3] === 1)) return undefined;
  if (node.type === 'nn.Identity' || node.type.includes('ropout') || sameBytes(node)) return { alias: node.inputs[0]! };
  return undefined;
}
