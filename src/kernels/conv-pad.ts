// Glue of the padded copy (f32_conv_pad) that runs in front of a small-channel convolution (the RGB
// stem): the row and column tables that encode the padding mode, and the validated parameter block.
import { FlowinferError } from '../errors.ts';
import {
  CPAD_BATCH, CPAD_CH, CPAD_COLS, CPAD_HP, CPAD_IN, CPAD_IN_IMAGE, CPAD_IN_PS, CPAD_OUT, CPAD_PARAMS_BYTES,
  CPAD_ROWS, CPAD_WIDTH, CPAD_WP, RESERVED_BYTES,
} from './abi.ts';
import type { SharedMemory } from './wasm.ts';

export interface PadCall {
  readonly input: number;
  readonly inPixelStride: number;
  readonly batch: number;
  readonly height: number;
  readonly width: number;
  readonly channels: number;
  /**
   * Byte offsets of the i32 tables and the tables themselves: the source row (column) of each padded row
   * (column), or -1 for zeros; the lowering builds them with ops/border.ts, which maps the padding modes.
   */
  readonly rows: number;
  readonly rowTable: Int32Array;
  readonly cols: number;
  readonly colTable: Int32Array;
  /** Dense output: batch x rowTable.length x colTable.length x channels floats. */
  readonly out: number;
}

export function writePadParams(memory: SharedMemory, at: number, call: PadCall): void {
  const { input, inPixelStride, batch, height, width, channels, rows, rowTable, cols, colTable, out } = call;
  const fail = (problem: string): never => {
    throw new FlowinferError(`padded copy of ${batch}x${channels}x${height}x${width} to ${rowTable.length}x${colTable.length} (input=${input} out=${out}): ${problem}`);
  };
  for (const [name, value] of Object.entries({ inPixelStride, batch, height, width, channels })) {
    if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive integer`);
  }
  if (inPixelStride < channels) fail('the pixel stride must be >= channels');
  if (rowTable.some((v) => v < -1 || v >= height) || colTable.some((v) => v < -1 || v >= width)) fail('a table entry is outside the image');
  if ([input, rows, cols, out].some((v) => v % 4 !== 0 || v < RESERVED_BYTES)) fail(`operands must be 4-byte aligned and in the arena (at or above ${RESERVED_BYTES})`);
  const inEnd = input + ((batch * height * width - 1) * inPixelStride + channels) * 4;
  const outEnd = out + batch * rowTable.length * colTable.length * channels * 4;
  const bytes = memory.buffer.byteLength;
  if (Math.max(inEnd, outEnd, rows + rowTable.length * 4, cols + colTable.length * 4) > bytes) fail(`operands end past the memory (${bytes} bytes)`);
  if (out < inEnd && input < outEnd) fail('the output overlaps the input');
  if (at % 16 !== 0 || at < RESERVED_BYTES || at + CPAD_PARAMS_BYTES > bytes) fail(`parameter block at ${at}: must be 16-byte aligned, in the arena and in the memory`);
  const u32 = new Uint32Array(memory.buffer, at, CPAD_PARAMS_BYTES / 4);
  u32.fill(0);
  u32[CPAD_IN / 4] = input;
  u32[CPAD_IN_PS / 4] = inPixelStride;
  u32[CPAD_OUT / 4] = out;
  u32[CPAD_CH / 4] = channels;
  u32[CPAD_ROWS / 4] = rows;
  u32[CPAD_COLS / 4] = cols;
  u32[CPAD_HP / 4] = rowTable.length;
  u32[CPAD_WP / 4] = colTable.length;
  u32[CPAD_WIDTH / 4] = width;
  u32[CPAD_IN_IMAGE / 4] = height * width * inPixelStride * 4;
  u32[CPAD_BATCH / 4] = batch;
}
