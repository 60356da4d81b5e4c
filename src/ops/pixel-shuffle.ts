// Depth to space: (N, C*r*r, H, W) → (N, C, H*r, W*r).
//   nn.PixelShuffle (CRD order): output (c, h*r+i, w*r+j) = input (c*r*r + i*r + j, h, w)
//   onnx.DepthToSpace mode=DCR (ONNX's default; PyTorch has no module for it): input ((i*r + j)*C + c, h, w)
//                      mode=CRD is PixelShuffle.

import { formatShape } from '../tensor/shape.ts';
import { gather } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

export const pixelShuffle: OpDef = {
  types: ['nn.PixelShuffle', 'F.pixel_shuffle', 'onnx.DepthToSpace'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const onnx = node.type === 'onnx.DepthToSpace';
    const r = onnx ? p.int('blocksize') : p.int('upscale_factor');
    const dcr = onnx && p.string('mode', ['DCR', 'CRD'], 'DCR') === 'DCR';
    if (r < 1) p.fail(`block size ${r} must be >= 1`);
    const outShape = (shape: readonly number[]): number[] => {
      if (shape.length < 3 || shape[shape.length - 3]! % (r * r) !== 0) {
        p.fail(`input ${formatShape(shape)}: expected (...,C,H,W) with C divisible by ${r * r}`);
      }
      const [c, h, w] = shape.slice(-3) as [number, number, number];
      return [...shape.slice(0, -3), c / (r * r), h * r, w * r];
    };
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: outShape(inputs[0]!.shape), dtype: inputs[0]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        const out = outShape(x.shape);
        const [c, oh, ow] = out.slice(-3) as [number, number, number];
        const [h, w] = [oh / r, ow / r];
        const batch = x.size / (c * r * r * h * w);
        const index = new Int32Array(x.size);
        let o = 0;
        for (let n = 0; n < batch; n++) {
          for (let ch = 0; ch < c; ch++) {
            for (let y = 0; y < oh; y++) {
              for (let xx = 0; xx < ow; xx++) {
                const [i, j] = [y % r, xx % r];
                const src = dcr ? (i * r + j) * c + ch : ch * r * r + i * r + j;
                index[o++] = ((n * c * r * r + src) * h + Math.floor(y / r)) * w + Math.floor(xx / r);
              }
            }
          }
        }
        return [gather(x, out, index)];
      },
    };
  },
};
