// A moving test pattern made in code, as frames for the demo: colour bars that scroll, a bright square
// that bounces, and a little noise, normalised as ImageNet models expect (NCHW, mean/std per channel).

import { Tensor } from '../tensor/tensor.ts';

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
const BARS = [[1, 1, 1], [1, 1, 0], [0, 1, 1], [0, 1, 0], [1, 0, 1], [1, 0, 0], [0, 0, 1], [0, 0, 0]];

export function testPatternFrame(index: number, size: number): Tensor {
  const data = new Float32Array(3 * size * size);
  const plane = size * size;
  const square = Math.max(4, Math.floor(size / 6));
  const period = 2 * (size - square);
  const bounce = (t: number) => { const m = t % period; return m < size - square ? m : period - m; };
  const sx = bounce(index * 3);
  const sy = bounce(index * 2 + 17);
  let seed = index * 2654435761;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const bar = BARS[Math.floor((((x + index * 2) % size) / size) * BARS.length)]!;
      const inSquare = x >= sx && x < sx + square && y >= sy && y < sy + square;
      seed = (seed * 1103515245 + 12345) >>> 0;
      const noise = ((seed >>> 16) / 65536 - 0.5) * 0.05;
      for (let c = 0; c < 3; c++) {
        const v = inSquare ? 1 - bar[c]! * 0.5 : bar[c]! * 0.75 + (y / size) * 0.25;
        data[c * plane + y * size + x] = (v + noise - MEAN[c]!) / STD[c]!;
      }
    }
  }
  return Tensor.f32([1, 3, size, size], data);
}
