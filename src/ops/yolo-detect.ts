// models.yolo.Detect: YOLOv5's detection head, kept whole by PNNX. Per scale i: a 1x1 convolution
// (@m.i.weight, @m.i.bias) to na*(5+classes) channels, then decoding with the grids and anchor grids
// (the @pnnx_k constants, shaped (1,na,H,W,2)) and the strides; output (N, sum na*H*W, 5+classes).

import { formatShape, numel } from '../tensor/shape.ts';
import type { OpDef } from './op.ts';
import { ParamReader } from './params.ts';

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
    const grid = [...node.weights.values()].find((w) => w.shape.length === 5 && w.shape[4] === 2);
    const anchors = grid?.shape[1] ?? 3;
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
    };
  },
};
