// pnnx.Expression on the fast path as a generated SIMD wasm loop (expr/compile-wasm.ts), for expressions
// of f32 operands whose ops that back end covers (arithmetic, min/max, clamps, abs, sqrt...); others go on
// to the JavaScript loop (expression.ts). Operands are given in the output's storage order, as there; the
// module is encoded here, once, and compiled by each worker.

import { compileExpressionWasm } from '../../expr/compile-wasm.ts';
import type { Node } from '../../graph/graph.ts';
import { watEncoderReady, watToWasm } from '../../kernels/wat.ts';
import type { Lowered } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { assertDense, expressionOperands, MIN_TILE } from './expression.ts';

export function lowerExpressionWasm(node: Node): Lowered | undefined {
  // Without the encoder (a caller that did not await loadWatEncoder) the JavaScript loop still computes it.
  if (!watEncoderReady()) return undefined;
  const operands = expressionOperands(node);
  if (!operands) return undefined;
  const out = node.outputs[0]!;
  const compiled = compileExpressionWasm(operands.expr, operands.shapes);
  if (compiled === undefined) return undefined;
  const wasm = Buffer.from(watToWasm(compiled.wat, `${node.name}.wat`)).toString('base64');
  const size = compiled.outputSize;
  return {
    build(ctx) {
      const inputs = node.inputs.map((v) => ctx.view(v));
      const output = ctx.view(out);
      assertDense(node, [...inputs, output]);
      // Tiles a multiple of 16 elements keep the f32x4 stores 64-byte aligned where the row allows.
      const perTile = Math.ceil(Math.max(MIN_TILE, Math.ceil(size / (ctx.threads * 4))) / 16) * 16;
      return [{ step: { kind: 'expr-wasm', label: label(node), wasm, inputs, output, size, perTile }, tiles: Math.ceil(size / perTile) }];
    },
  };
}
