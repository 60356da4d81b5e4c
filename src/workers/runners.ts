// The worker's table of step runners: each turns a Step (protocol.ts) into a function that runs one tile
// of it for the frame in a given slot. Built once per program, when a worker starts serving.

import { kernelFromSource } from '../expr/compile.ts';
import { Graph } from '../graph/graph.ts';
import type { KernelExports } from '../kernels/module.ts';
import { wasm, type SharedMemory } from '../kernels/wasm.ts';
import { defaultRegistry } from '../ops/registry.ts';
import { decodeValue } from '../ops/yolo-decode.ts';
import type { TensorView } from '../runtime/fast/views.ts';
import { viewAs } from '../tensor/dtype.ts';
import { nchwToNhwc, nhwcToNchw } from '../tensor/nhwc.ts';
import { numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import type { Step } from './protocol.ts';
import type { TileRunner } from './serve-loop.ts';

export interface RunnerContext {
  readonly kernels: KernelExports;
  readonly memory: SharedMemory;
  readonly buffer: SharedArrayBuffer;
  readonly slotBases: readonly number[];
}

const floats = (ctx: RunnerContext, slot: number, v: TensorView, count: number) =>
  new Float32Array(ctx.buffer, ctx.slotBases[slot]! + v.offset, count);

/** Dims of a view as (n, c, h, w) whatever its rank (plain tensors count as one row of one pixel). */
function dims4(v: TensorView): [number, number, number, number] {
  const [n, c, h, w] = v.shape as [number, number, number, number];
  return [n, c, h, w];
}

/** Reads a view into a fresh NCHW tensor. */
function readTensor(ctx: RunnerContext, slot: number, v: TensorView): Tensor {
  const out = new Float32Array(numel(v.shape));
  if (v.layout === 'plain') out.set(floats(ctx, slot, v, out.length));
  else {
    const [n, c, h, w] = dims4(v);
    nhwcToNchw(floats(ctx, slot, v, (n * h * w - 1) * v.pixelStride + c), out, n, c, h, w, v.pixelStride);
  }
  return new Tensor('f32', v.shape, out);
}

function writeTensor(ctx: RunnerContext, slot: number, v: TensorView, t: Tensor): void {
  const data = t.f32;
  if (v.layout === 'plain') floats(ctx, slot, v, data.length).set(data);
  else {
    const [n, c, h, w] = dims4(v);
    nchwToNhwc(data, floats(ctx, slot, v, (n * h * w - 1) * v.pixelStride + c), n, c, h, w, v.pixelStride);
  }
}

type Factory<K extends Step['kind']> = (step: Extract<Step, { kind: K }>, ctx: RunnerContext) => TileRunner;

const FACTORIES: { [K in Step['kind']]: Factory<K> } = {
  gemm(step, ctx) {
    const tilesN = Math.ceil(step.panels / step.tileN);
    return (tile, slot) => {
      const tm = Math.floor(tile / tilesN);
      const tn = tile - tm * tilesN;
      ctx.kernels.f32_gemm_4x8(step.params[slot]!, tm * step.tileM, Math.min(step.m, (tm + 1) * step.tileM),
        tn * step.tileN, Math.min(step.panels, (tn + 1) * step.tileN));
    };
  },

  range(step, ctx) {
    const fn = ctx.kernels[step.fn];
    return (tile, slot) => {
      const u0 = tile * step.perTile;
      fn(step.params[slot]!, u0, Math.min(step.units, u0 + step.perTile));
    };
  },

  'to-nhwc'(step, ctx) {
    const [n, c, h, w] = dims4(step.dst);
    return (tile, slot) => {
      const row0 = tile * step.rowsPerTile;
      nchwToNhwc(floats(ctx, slot, step.src, n * c * h * w), floats(ctx, slot, step.dst, (n * h * w - 1) * step.dst.pixelStride + c),
        n, c, h, w, step.dst.pixelStride, row0, Math.min(n * h, row0 + step.rowsPerTile));
    };
  },

  'to-nchw'(step, ctx) {
    const [n, c, h, w] = dims4(step.src);
    return (tile, slot) => {
      const row0 = tile * step.rowsPerTile;
      nhwcToNchw(floats(ctx, slot, step.src, (n * h * w - 1) * step.src.pixelStride + c), floats(ctx, slot, step.dst, n * c * h * w),
        n, c, h, w, step.src.pixelStride, row0, Math.min(n * h, row0 + step.rowsPerTile));
    };
  },

  expr(step, ctx) {
    const kernel = kernelFromSource(step.source);
    const size = numel(step.output.shape);
    return (tile, slot) => {
      const inputs = step.inputs.map((v) => floats(ctx, slot, v, numel(v.shape)));
      const begin = tile * step.perTile;
      kernel(inputs, floats(ctx, slot, step.output, size), begin, Math.min(size, begin + step.perTile));
    };
  },

  'expr-wasm'(step, ctx) {
    // Compiled once per step and thread; the run function is bound per slot to its absolute addresses,
    // so a tile is one call and allocates nothing.
    const instance = new wasm.Instance(new wasm.Module(Buffer.from(step.wasm, 'base64')), { env: { memory: ctx.memory } });
    const run = instance.exports.run as (...args: number[]) => void;
    const bound = ctx.slotBases.map((base) =>
      run.bind(null, base + step.output.offset, ...step.inputs.map((v) => base + v.offset)) as (begin: number, end: number) => void);
    return (tile, slot) => {
      const begin = tile * step.perTile;
      bound[slot]!(begin, Math.min(step.size, begin + step.perTile));
    };
  },

  'yolo-decode'(step, ctx) {
    const { n, h, w, na, no, rows, rowStart, stride, legacy } = step;
    const cells = new Float32Array(ctx.buffer, step.cells, na * h * w * 2);
    const anchors = new Float32Array(ctx.buffer, step.anchors, na * h * w * 2);
    return (tile, slot) => {
      const src = floats(ctx, slot, step.src, n * h * w * na * no);
      const dst = floats(ctx, slot, step.dst, n * rows * no);
      for (let u = tile * step.perTile; u < Math.min(n * h, (tile + 1) * step.perTile); u++) {
        const b = Math.floor(u / h);
        const y = u - b * h;
        for (let x = 0; x < w; x++) {
          const pixel = ((b * h + y) * w + x) * na * no;
          for (let a = 0; a < na; a++) {
            const q = (a * h + y) * w + x;
            const out = (b * rows + rowStart + q) * no;
            for (let k = 0; k < no; k++) {
              const t = q * 2 + (k & 1);
              dst[out + k] = decodeValue(src[pixel + a * no + k]!, k, cells[t]!, anchors[t]!, stride, legacy);
            }
          }
        }
      }
    };
  },

  fallback(step, ctx) {
    // Rebuild the node in this thread and bind it: the reference implementation runs on NCHW copies.
    const g = new Graph(step.node.source?.file ?? '<program>');
    const node = g.addNode({
      type: step.node.type,
      name: step.node.name,
      inputs: step.inputs.map((_, i) => g.value(`in${i}`)),
      outputs: step.outputs.map((_, i) => g.value(`out${i}`)),
      params: step.node.params.map(([k, p]) => [k, p]),
      weights: step.node.weights.map(([k, w]) => [k, {
        dtype: w.dtype,
        shape: w.shape,
        data: w.offset === undefined || w.dtype === null ? undefined : viewAs(w.dtype, ctx.buffer, w.offset, numel(w.shape)),
      }]),
      source: step.node.source,
    });
    const op = defaultRegistry.get(node.type)!.bind(node);
    return (_tile, slot) => {
      const results = op.reference(step.inputs.map((v) => readTensor(ctx, slot, v)));
      results.forEach((t, i) => writeTensor(ctx, slot, step.outputs[i]!, t));
    };
  },
};

export function makeRunner(step: Step, ctx: RunnerContext): TileRunner {
  switch (step.kind) {
    case 'gemm': return FACTORIES.gemm(step, ctx);
    case 'range': return FACTORIES.range(step, ctx);
    case 'to-nhwc': return FACTORIES['to-nhwc'](step, ctx);
    case 'to-nchw': return FACTORIES['to-nchw'](step, ctx);
    case 'expr': return FACTORIES.expr(step, ctx);
    case 'expr-wasm': return FACTORIES['expr-wasm'](step, ctx);
    case 'yolo-decode': return FACTORIES['yolo-decode'](step, ctx);
    case 'fallback': return FACTORIES.fallback(step, ctx);
    default: throw new Error(`unknown step kind ${JSON.stringify((step as { kind: unknown }).kind)}`);
  }
}
