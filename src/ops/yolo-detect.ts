// models.yolo.Detect: YOLOv5's detection head, kept whole by PNNX. Per scale i: a 1x1 convolution
// (@m.i.weight, @m.i.bias) to na*(5+classes) channels, then decoding with the grids and anchor grids
// (the @pnnx_k constants, shaped (1,na,H,W,2)) and the strides; output (N, sum na*H*W, 5+classes).
// The reference (YOLOv5's decode, constants told apart by content) is in yolo-decode.ts.

import { formatShape, numel } from '../tensor/shape.ts';
import type { OpDef } from './op.ts';
import type { Node } from '../graph/graph.ts';
import { ParamReader } from './params.ts';
import { allocateWeight } from './init.ts';
import { detectLayout, detectReference } from './yolo-decode.ts';

export const yoloDetect: OpDef = {
  types: ['models.yolo.Detect'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const scales = node.inputs.length;
    if (scales < 1) p.fail('expected at least one feature map input');
    const convs = Array.from({ length: scales }, (_, i) => {
      const w = p.weightShape(`m.${i}.weight`);
      if (!w || w.length !== 4 || w[2] !== 1 || w[3] !== 1) p.fail(`weight @m.${i}.weight is ${w ? formatShape(w) : 'missing'}: expected (na*no,C,1,1)`);
      return { outChannels: w[0]!, inChannels: w[1]! };
    });
    const layout = detectLayout(node, p, scales);
    const anchors = layout?.anchors ?? 3;
    const perAnchor = convs[0]!.outChannels / anchors;
    if (!Number.isInteger(perAnchor) || convs.some((c) => c.outChannels !== anchors * perAnchor)) {
      p.fail(`the heads' output channels (${convs.map((c) => c.outChannels).join(', ')}) are not ${anchors} anchors x (5 + classes)`);
    }
    return {
      infer(inputs) {
        p.expectInputs(inputs, scales);
        let boxes = 0;
        for (const [i, x] of inputs.entries()) {
          p.expectRank(x, [4], `input ${i}`);
          if (x.shape[1] !== convs[i]!.inChannels || x.shape[0] !== inputs[0]!.shape[0]) {
            p.fail(`input ${i} ${formatShape(x.shape)}: expected (${inputs[0]!.shape[0]},${convs[i]!.inChannels},H,W)`);
          }
          boxes += anchors * x.shape[2]! * x.shape[3]!;
        }
        return [{ shape: [inputs[0]!.shape[0]!, boxes, perAnchor], dtype: inputs[0]!.dtype }];
      },
      macs: (inputs) => inputs.reduce((sum, x, i) => sum + (numel(x.shape) / x.shape[1]!) * convs[i]!.inChannels * convs[i]!.outChannels, 0),
      reference(inputs) {
        this.infer(inputs);
        if (!layout) return p.fail('has no grid constants (@pnnx_k shaped (1,na,H,W,2)) to decode with');
        const heads = convs.map((_, i) => ({
          weight: p.weightF32(`m.${i}.weight`),
          bias: node.weights.has(`m.${i}.bias`) ? p.weightF32(`m.${i}.bias`) : undefined,
        }));
        return [detectReference(layout, perAnchor, heads, inputs, p)];
      },
    };
  },
  initWeights(node, random) {
    for (let i = 0; node.weights.has(`m.${i}.weight`); i++) {
      const w = allocateWeight(node, `m.${i}.weight`)!;
      random.fillNormal(w, 0.01);
      const b = allocateWeight(node, `m.${i}.bias`);
      if (b) random.fillNormal(b, 0.5);
    }
    initDetectConstants(node);
  },
};

/** YOLOv5's default anchors (pixels) for strides 8, 16, 32. */
const DEFAULT_ANCHORS = [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119], [116, 90, 156, 198, 373, 326]];

/**
 * The Detect constants as YOLOv5 (v6+) makes them: per map size a grid (x - 0.5, y - 0.5) and an anchor
 * grid (anchor sizes in pixels), declared in that order; maps from largest to smallest have strides 8, 16,
 * 32; a (na) vector holds the strides.
 */
function initDetectConstants(node: Node): void {
  const grids = [...node.weights].filter(([, w]) => w.shape.length === 5 && w.shape[4] === 2);
  const sizes = [...new Set(grids.map(([, w]) => w.shape[2]!))].sort((a, b) => b - a);
  const seen = new Map<number, number>();
  for (const [key, w] of grids) {
    const [, na, h, wd] = w.shape as [number, number, number, number, number];
    const level = sizes.indexOf(h);
    const role = seen.get(h) ?? 0;
    seen.set(h, role + 1);
    const data = allocateWeight(node, key)!;
    const anchors = DEFAULT_ANCHORS[Math.min(level, 2)]!;
    for (let a = 0; a < na; a++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < wd; x++) {
          const o = (((a * h + y) * wd) + x) * 2;
          if (role === 0) {
            data[o] = x - 0.5;
            data[o + 1] = y - 0.5;
          } else {
            data[o] = anchors[(a % 3) * 2]!;
            data[o + 1] = anchors[(a % 3) * 2 + 1]!;
          }
        }
      }
    }
  }
  for (const [key, w] of node.weights) {
    if (w.shape.length === 1 && !w.data) {
      const data = allocateWeight(node, key)!;
      for (let i = 0; i < data.length; i++) data[i] = 8 * 2 ** i;
    }
  }
}
