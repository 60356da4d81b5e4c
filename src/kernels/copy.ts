// Glue of f32_copy_rows: strided row copies from several sources into one output (torch.cat), layout
// COPY_* in abi.ts. Every source has the same number of rows; row r of source i (len_i floats) lands at
// float offset dstOffset_i of output row r. For a channel concatenation of NHWC tensors a row is a pixel.

import { COPY_COUNT, COPY_DOFF, COPY_ENTRIES, COPY_ENTRY_BYTES, COPY_LEN, COPY_SRC, COPY_SS, COPY_Y, COPY_YS } from './abi.ts';
import { blockViews, CallCheck, type Region } from './eltwise-regions.ts';
import type { Rows } from './eltwise.ts';
import type { SharedMemory } from './wasm.ts';

export interface CopySource {
  readonly src: Rows;
  /** Floats per row. */
  readonly len: number;
  /** Floats from the start of an output row to where this source's row goes. */
  readonly dstOffset: number;
}

export interface CopyCall {
  readonly y: Rows;
  readonly rows: number;
  readonly sources: readonly CopySource[];
}

export const copyParamsBytes = (sources: number): number => Math.ceil((COPY_ENTRIES + sources * COPY_ENTRY_BYTES) / 64) * 64;

/** Validates the copy and writes its block at `at` (copyParamsBytes(sources) bytes, 16-byte aligned). */
export function writeCopyParams(memory: SharedMemory, at: number, call: CopyCall): void {
  const check = new CallCheck(`copy of ${call.sources.length} sources over ${call.rows} rows`, memory.buffer.byteLength);
  check.counts({ rows: call.rows, sources: call.sources.length });
  const slices: Region[] = call.sources.map((s, i) => {
    check.counts({ [`source ${i} length`]: s.len });
    check.counts({ [`source ${i} output offset`]: s.dstOffset }, 0);
    if (s.dstOffset + s.len > call.y.stride) check.fail(`source ${i} lands at floats [${s.dstOffset}, ${s.dstOffset + s.len}) of output rows of stride ${call.y.stride}`);
    const src: Region = { ...s.src, rows: call.rows, cols: s.len };
    const dst: Region = { at: call.y.at + s.dstOffset * 4, stride: call.y.stride, rows: call.rows, cols: s.len };
    check.region(`source ${i}`, src);
    check.region(`output slice ${i}`, dst);
    return dst;
  });
  slices.forEach((dst, i) => {
    call.sources.forEach((s, j) => check.disjoint(`output slice ${i}`, dst, `source ${j}`, { ...s.src, rows: call.rows, cols: s.len }));
    slices.forEach((other, j) => {
      if (j > i) check.disjoint(`output slice ${i}`, dst, `output slice ${j}`, other);
    });
  });
  const bytes = copyParamsBytes(call.sources.length);
  check.block('parameter block', at, bytes);
  const v = blockViews(memory, at, bytes);
  v.u32.fill(0);
  v.u32[COPY_Y / 4] = call.y.at;
  v.u32[COPY_YS / 4] = call.y.stride;
  v.u32[COPY_COUNT / 4] = call.sources.length;
  call.sources.forEach((s, i) => {
    const e = (COPY_ENTRIES + i * COPY_ENTRY_BYTES) / 4;
    v.u32[e + COPY_SRC / 4] = s.src.at;
    v.u32[e + COPY_SS / 4] = s.src.stride;
    v.u32[e + COPY_LEN / 4] = s.len;
    v.u32[e + COPY_DOFF / 4] = s.dstOffset;
  });
}
