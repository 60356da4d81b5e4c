// Range steps for the pooling, elementwise, resize, softmax and copy kernels: one parameter block per slot
// (the addresses move with the slot), written at build time, and a tile plan that lets both workers share
// the work. Also the row views the kernels take: an NHWC tensor's pixels, or a plain tensor's rows.

import type { RangeKernelName } from '../../kernels/module.ts';
import type { BuildContext, PlannedStep } from '../../runtime/fast/lowering.ts';
import type { Value } from '../../graph/graph.ts';
import { layoutFor, type TensorView } from '../../runtime/fast/views.ts';
import { numel } from '../../tensor/shape.ts';
import { MAX_TILES } from '../../workers/protocol.ts';

// A tile should outlast its dispatch: waking a sleeping worker costs ~20 us here (DESIGN.md), and a
// claimed tile costs a CAS and a call into wasm. One thread streams 50-70 GB/s through these kernels on
// tensors resident in L2/L3 (bench/kernels/eltwise.ts), so ~20 us is ~1 MiB of traffic. Compute-heavy
// kernels state their cost in the same unit: bytes a streaming kernel would move in that time.
export const MIN_TILE_BYTES = 1 << 20;
// Tiles per thread at most: a woken worker often starts 1-2 ms late on this VM, so the other one must be
// able to take most of the work (gemm.ts found the same); 8 keeps several tiles each on big tensors.
const TILES_PER_THREAD = 8;

export interface RangePlan {
  readonly perTile: number;
  readonly tiles: number;
}

/**
 * Tiles for `units` work units of `bytesPerUnit` bytes of traffic each (reads + writes, or an equivalent
 * for compute-heavy kernels): at least MIN_TILE_BYTES per tile, at most TILES_PER_THREAD per thread.
 */
export function planRange(units: number, bytesPerUnit: number, threads: number): RangePlan {
  const byWork = Math.floor((units * bytesPerUnit) / MIN_TILE_BYTES);
  const wanted = Math.max(1, Math.min(units, TILES_PER_THREAD * Math.max(1, threads), byWork, MAX_TILES));
  const perTile = Math.ceil(units / wanted);
  return { perTile, tiles: Math.ceil(units / perTile) };
}

/**
 * One range step: a parameter block of `blockBytes` per slot, filled by `write(at, slotBase)`, and tiles
 * planned from the units' cost. Zero units (an empty tensor) need no step at all.
 */
export function rangeStep(
  ctx: BuildContext,
  stepLabel: string,
  fn: RangeKernelName,
  units: number,
  bytesPerUnit: number,
  blockBytes: number,
  write: (at: number, slotBase: number) => void,
): PlannedStep[] {
  if (units === 0) return [];
  const params = ctx.slotBases.map((base) => {
    const at = ctx.arena.alloc(blockBytes, 64);
    write(at, base);
    return at;
  });
  const { perTile, tiles } = planRange(units, bytesPerUnit, ctx.threads);
  return [{ step: { kind: 'range', label: stepLabel, fn, params, units, perTile }, tiles }];
}

/** A view as rows: NHWC pixels of C floats (stride = pixel stride), or a plain tensor's last dim. */
export interface RowView {
  readonly rows: number;
  readonly cols: number;
  /** Floats from one row to the next. */
  readonly stride: number;
}

export function rowsOf(v: TensorView): RowView {
  if (v.layout === 'nhwc') {
    const [n, c, h, w] = v.shape as [number, number, number, number];
    return { rows: n * h * w, cols: c, stride: v.pixelStride };
  }
  const cols = v.shape.length === 0 ? 1 : v.shape[v.shape.length - 1]!;
  return { rows: cols === 0 ? 0 : numel(v.shape) / cols, cols, stride: cols };
}

/** Whether a view's floats are one contiguous run in logical storage order (no pixel gaps). */
export const isDense = (v: TensorView): boolean => v.layout === 'plain' || v.pixelStride === v.shape[1];

export const f32Only = (...values: ReadonlyArray<{ dtype: string | undefined }>): boolean => values.every((v) => v.dtype === 'f32');

/**
 * A value's view before the memory plan (offset 0, dense pixels): enough to decide at lowering time
 * whether a kernel pattern fits, since patterns depend on shapes and layouts only.
 */
export const unplannedView = (v: Value): TensorView => ({
  offset: 0, shape: v.shape!, layout: layoutFor(v.shape!), pixelStride: v.shape!.length === 4 ? v.shape![1]! : 1,
});
