// models.yolo.Detect on the fast path: per input map, its 1x1 head as a GEMM over the NHWC pixels with the
// sigmoid fused in the epilogue (into scratch), then a decode step that writes the boxes with the same
// grid and anchor tables the reference uses (ops/yolo-decode.ts decodeTables / decodeValue).

import type { Node } from '../../graph/graph.ts';
import type { Lowered, PlannedStep } from '../../runtime/fast/lowering.ts';
import { label } from '../../runtime/fast/lowering.ts';
import { ParamReader } from '../params.ts';
import { decodeTables, detectLayout, detectLevels } from '../yolo-decode.ts';
import { buildGemm } from './gemm.ts';

export function lowerDetect(node: Node): Lowered | undefined {
  const p = new ParamReader(node);
  const layout = detectLayout(node, p, node.inputs.length);
  if (!layout || node.outputs.length !== 1 || node.inputs.some((v) => v.shape!.length !== 4)) return undefined;
  const na = layout.anchors;
  const shapes = node.inputs.map((v) => v.shape!);
  const levels = detectLevels(layout, shapes, p);
  const heads = node.inputs.map((v, i) => {
    const [outChannels, inChannels] = p.weightShape(`m.${i}.weight`)! as [number, number];
    return { n: outChannels, k: inChannels, weightKey: `m.${i}.weight`, biasKey: node.weights.has(`m.${i}.bias`) ? `m.${i}.bias` : undefined };
  });
  const no = heads[0]!.n / na;
  const rows = shapes.reduce((s, [, , h, w]) => s + na * h! * w!, 0);
  return {
    // One scratch region per map: its head's output, N*H*W pixels of na*no floats.
    scratch: shapes.map(([n, , h, w], i) => n! * h! * w! * heads[i]!.n * 4),
    build(ctx) {
      const steps: PlannedStep[] = [];
      const dst = ctx.view(node.outputs[0]!);
      let rowStart = 0;
      node.inputs.forEach((input, i) => {
        const [n, , h, w] = shapes[i] as [number, number, number, number];
        const head = heads[i]!;
        const src = ctx.scratch(i);
        steps.push(buildGemm(node, {
          weights: p.weightF32(head.weightKey), bias: head.biasKey ? p.weightF32(head.biasKey) : undefined,
          n: head.n, k: head.k, activation: 'sigmoid', alpha: 0,
        }, ctx.view(input), src, ctx));
        const t = decodeTables(levels[i]!.level, levels[i]!.stride, na, h, w, p);
        const perTile = Math.max(1, Math.ceil((n * h) / (ctx.threads * 4)));
        steps.push({
          step: {
            kind: 'yolo-decode', label: label(node), src, dst, n, h, w, na, no, rowStart, rows,
            cells: ctx.arena.store(t.cells, 16), anchors: ctx.arena.store(t.anchors, 16), stride: t.stride, legacy: t.legacy, perTile,
          },
          tiles: Math.ceil((n * h) / perTile),
        });
        rowStart += na * h * w;
      });
      return steps;
    },
  };
}
