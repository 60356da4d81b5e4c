// Convolutions and linear layers that are one GEMM over the arena as it is:
//   nn.Conv2d 1x1, stride 1, no padding, groups 1:  A = input pixels (NHWC rows, lda = pixel stride),
//   (lowered by conv.ts, its `gemm` path)            C = output pixels, M = N*H*W, K = Cin, N = Cout,
//                                                    optional residual R laid out like C
//   nn.Linear on a plain input:                      A = rows of in_features, M = numel / in_features
// Weights are packed once into GEMM panels (bias first, kernels/pack.ts); each slot gets its own
// parameter block, since A and C move with the slot.

import type { Node } from '../../graph/graph.ts';
import { GEMM_PARAMS_BYTES } from '../../kernels/abi.ts';
import type { Activation } from '../../kernels/activation.ts';
import { planGemmTiles, writeGemmParams } from '../../kernels/gemm.ts';
import { packedGemmFloats, packGemmWeights } from '../../kernels/pack.ts';
import type { BuildContext, Lowered, PlannedStep } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import type { TensorView } from '../../runtime/fast/views.ts';
import { numel } from '../../tensor/shape.ts';
import { ParamReader } from '../params.ts';
import { epilogueOf } from './epilogue.ts';

export interface GemmLayer {
  /** (N, K) row-major weights and optional bias. */
  readonly weights: Float32Array;
  readonly bias: Float32Array | undefined;
  readonly n: number;
  readonly k: number;
  readonly activation: Activation;
  readonly alpha: number;
}

/** Rows and row stride of a view used as a GEMM operand with `k` floats per row. */
function rows(v: TensorView, k: number): { m: number; ld: number } {
  if (v.layout === 'nhwc') return { m: v.shape[0]! * v.shape[2]! * v.shape[3]!, ld: v.pixelStride };
  return { m: numel(v.shape) / k, ld: k };
}

/** Packs the layer's weights and writes one parameter block per slot; `residual` (laid out like the output) is added before the activation. */
export function buildGemm(node: Node, layer: GemmLayer, input: TensorView, output: TensorView, ctx: BuildContext, residual?: TensorView): PlannedStep {
  const packed = ctx.arena.alloc(packedGemmFloats(layer.n, layer.k) * 4, 16);
  packGemmWeights(ctx.arena.f32(packed, packedGemmFloats(layer.n, layer.k)), layer.weights, layer.bias, layer.n, layer.k);
  const a = rows(input, layer.k);
  const c = rows(output, layer.n);
  const r = residual && rows(residual, layer.n);
  const tiles = planGemmTiles(a.m, layer.n, layer.k, ctx.threads);
  const params = ctx.slotBases.map((base) => {
    const at = ctx.arena.alloc(GEMM_PARAMS_BYTES, 64);
    writeGemmParams(ctx.arena.memory, at, {
      a: base + input.offset, lda: a.ld, w: packed, c: base + output.offset, ldc: c.ld,
      m: a.m, n: layer.n, k: layer.k, activation: layer.activation, alpha: layer.alpha,
      residual: residual && r ? { r: base + residual.offset, ldr: r.ld } : undefined,
    }, tiles);
    return at;
  });
  const panels = Math.ceil(layer.n / 8);
  return { step: { kind: 'gemm', label: label(node), params, m: a.m, panels, tileM: tiles.tileM, tileN: tiles.tileN }, tiles: tiles.count };
}

export function lowerLinear(node: Node): Lowered | undefined {
  const epilogue = epilogueOf(node);
  if (!epilogue || node.inputs[0]!.shape!.length === 4) return undefined; // NHWC storage: the last dim is not contiguous
  const p = new ParamReader(node);
  const n = p.int('out_features');
  const k = p.int('in_features');
  return {
    build: (ctx) => [buildGemm(node, {
      weights: p.weightF32('weight'), bias: node.weights.has('bias') && p.bool('bias', true) ? p.weightF32('bias') : undefined,
      n, k, ...epilogue,
    }, ctx.view(node.inputs[0]!), ctx.view(node.outputs[0]!), ctx)],
  };
}
