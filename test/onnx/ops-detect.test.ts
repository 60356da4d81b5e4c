// models.yolo.Detect exported as primitive ONNX ops, held to the reference decode (src/ops/yolo-decode.ts)
// through onnxruntime-node on the cases where the decode chooses: YOLOv5 v6 grids (x - 0.5, y - 0.5) and
// older ones (x, y), constants declared anchor grid first, and feature maps of another size than the stored
// grids (then regenerated, each anchor's size taken from position (0, 0)).
import type { Graph } from '../../src/graph/graph.ts';
import { opTests, type OpCase } from './op-cases.ts';

const NO = 7; // 5 + 2 classes
const head = (i: number, c: number) => `@m.${i}.weight=(${3 * NO},${c},1,1)f32 @m.${i}.bias=(${3 * NO})f32`;

/** Two levels: an 8x6 map (C=4) and a 4x3 map (C=5); constants for those sizes, `order` = declaration order. */
function detectLines(shapes: [number[], number[]], grids: Array<[string, number, number]>): string[] {
  return [
    `pnnx.Input in0 0 1 a #a=(${shapes[0].join(',')})f32`,
    `pnnx.Input in1 0 1 b #b=(${shapes[1].join(',')})f32`,
    `models.yolo.Detect op 2 1 a b y ${head(0, 4)} ${head(1, 5)} ${grids.map(([k, h, w]) => `@${k}=(1,3,${h},${w},2)f32`).join(' ')} @strides=(2)f32`,
    'pnnx.Output out0 1 0 y',
  ];
}

const STORED: Array<[string, number, number]> = [['pnnx_0', 8, 6], ['pnnx_1', 8, 6], ['pnnx_2', 4, 3], ['pnnx_3', 4, 3]];

/** Rewrites every grid constant (the first of each pair, as seeded) to (x + c, y + c). */
const gridsWithOffset = (c: number) => (g: Graph) => {
  const node = g.nodes.find((n) => n.type === 'models.yolo.Detect')!;
  for (const key of ['pnnx_0', 'pnnx_2']) {
    const w = node.weights.get(key)!;
    const [, na, h, wd] = w.shape as number[];
    const data = w.data as Float32Array;
    for (let a = 0; a < na!; a++) {
      for (let y = 0; y < h!; y++) {
        for (let x = 0; x < wd!; x++) {
          const o = ((a * h! + y) * wd! + x) * 2;
          data[o] = x + c;
          data[o + 1] = y + c;
        }
      }
    }
  }
};

/** Swaps each pair's data, so that the anchor grid is declared first. */
const anchorsFirst = (g: Graph) => {
  const node = g.nodes.find((n) => n.type === 'models.yolo.Detect')!;
  for (const [a, b] of [['pnnx_0', 'pnnx_1'], ['pnnx_2', 'pnnx_3']] as const) {
    const wa = node.weights.get(a)!;
    const wb = node.weights.get(b)!;
    [wa.data, wb.data] = [wb.data, wa.data];
  }
};

const maps: [number[], number[]] = [[2, 4, 8, 6], [2, 5, 4, 3]];
const CASES: OpCase[] = [
  { name: 'Detect, YOLOv5 v6 grids', inputs: maps, lines: detectLines(maps, STORED), range: [-1, 1] },
  { name: 'Detect, grids before v6 (x, y)', inputs: maps, lines: detectLines(maps, STORED), prepare: gridsWithOffset(0) },
  { name: 'Detect, anchor grids declared first', inputs: maps, lines: detectLines(maps, STORED), prepare: anchorsFirst },
  { name: 'Detect, maps of another size than the stored grids', inputs: [[1, 4, 10, 8], [1, 5, 5, 4]], lines: detectLines([[1, 4, 10, 8], [1, 5, 5, 4]], STORED) },
];

opTests('yolo', CASES);
