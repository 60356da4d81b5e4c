// The worker protocol, in one file: the task ring's layout in shared memory, and the messages that cross
// to a worker (only descriptors: offsets, sizes, kernel names; never tensor bytes).
//
// Control words (Int32, at abi CONTROL_BASE):
//
//   RESERVE      positions handed out to publishers (monotonic); any thread may publish (publish.ts)
//   TAIL         positions published, in order (monotonic): workers take tasks below it
//   HEAD         tasks fully claimed by workers (monotonic; advanced by CAS)
//   COMPLETIONS  tasks finished (monotonic); the main thread waits on it with Atomics.waitAsync
//   SETTLED      frames settled (monotonic): a chained frame's last running task ended
//   SHUTDOWN     1: workers leave their loop
//   FAILURES     tasks that failed (monotonic)
//
// Task entries (a ring of RING_CAPACITY entries of 8 Int32 words, in the arena):
//
//   CLAIM   (sequence & 0xffff) << 16 | next tile; a worker claims tile t by CAS t -> t+1 after checking that
//           the sequence is the task it means (a worker that lags a whole lap sees another sequence)
//   DONE    tiles finished; the worker that finishes the last one completes the task
//   NODE    step index into the program
//   SLOT    arena slot (frame in flight) the step reads and writes
//   TILES   number of tiles (1..65535)
//   FAILED  0, or 1 + the worker index whose tile threw (its message is in that worker's error text)
//   STATE   1 while the entry holds a task not yet completed and collected; 0 when it may be reused
//
// Frames run in one of two modes (the slot's CHAINED word):
//   collected  the main thread publishes every task (an RxJS node firing) and collects completions
//   chained    the main thread publishes a frame's first tasks; the worker that completes a task counts
//              down its successors' REMAINING counters and publishes those that reach 0 itself, so a frame
//              runs without the main thread between steps; the main thread hears only that it settled.
// Per slot: RUNNING (tasks published, not completed), DONE (tasks completed), FAILED_STEP (1 + the first
// failed step), CANCELLED, CHAINED, FAILED_WORKER (1 + the worker whose error text tells why); and per
// (slot, step) a REMAINING counter of unfinished dependencies.
//
// Error text: per worker, ERROR_TEXT_BYTES of UTF-8 (length-prefixed) with the last failure's message.

import { CONTROL_BASE } from '../kernels/abi.ts';
import type { RangeKernelName, SimdVariant } from '../kernels/module.ts';
import type { SharedMemory, WasmModule } from '../kernels/wasm.ts';
import type { Param } from '../graph/param.ts';
import type { TensorView } from '../runtime/fast/views.ts';
import type { DType } from '../tensor/dtype.ts';
import type { Shape } from '../tensor/shape.ts';

export const HEADER = {
  TAIL: CONTROL_BASE / 4,
  HEAD: CONTROL_BASE / 4 + 1,
  COMPLETIONS: CONTROL_BASE / 4 + 2,
  SHUTDOWN: CONTROL_BASE / 4 + 3,
  FAILURES: CONTROL_BASE / 4 + 4,
  RESERVE: CONTROL_BASE / 4 + 5,
  SETTLED: CONTROL_BASE / 4 + 6,
} as const;

/**
 * Entries in the ring: far above the tasks ever published at once (a frame publishes only the steps that
 * are ready; with several frames in flight that is tens), so that no publisher waits for a free entry.
 */
export const RING_CAPACITY = 4096;
export const ENTRY_WORDS = 8;
export const ENTRY = { CLAIM: 0, DONE: 1, NODE: 2, SLOT: 3, TILES: 4, FAILED: 5, STATE: 6 } as const;

/** Int32 words per slot of frame state. */
export const FRAME_WORDS = 8;
export const FRAME = { RUNNING: 0, DONE: 1, FAILED_STEP: 2, CANCELLED: 3, CHAINED: 4, FAILED_WORKER: 5 } as const;
export const RING_BYTES = RING_CAPACITY * ENTRY_WORDS * 4;
export const MAX_TILES = 0xffff;
export const ERROR_TEXT_BYTES = 2048;

/**
 * Where the ring and the error texts live (byte offsets into the shared memory), and the timing table:
 * Float64 milliseconds spent per (worker, slot, step), summed over tiles; each worker writes only its own
 * cells, the main thread reads and clears a slot's cells between frames.
 */
export interface RingLayout {
  readonly ringBase: number;
  readonly errorBase: number;
  readonly workers: number;
  readonly timingBase: number;
  readonly slots: number;
  readonly steps: number;
  /** slots x FRAME_WORDS Int32 of frame state, and slots x steps Int32 REMAINING counters (chained frames). */
  readonly frameBase: number;
  readonly remainingBase: number;
}

/** Bytes of the frame state and REMAINING counters for `slots` x `steps`. */
export const frameBytes = (slots: number, steps: number) => slots * FRAME_WORDS * 4 + slots * steps * 4;

/** Int32 index of a slot's frame-state word. */
export const frameWord = (layout: RingLayout, slot: number, word: number) => layout.frameBase / 4 + slot * FRAME_WORDS + word;

/** Int32 index of a (slot, step) REMAINING counter. */
export const remainingWord = (layout: RingLayout, slot: number, step: number) => layout.remainingBase / 4 + slot * layout.steps + step;

/** Index (in Float64 elements from timingBase) of a timing cell. */
export const timingCell = (layout: RingLayout, worker: number, slot: number, step: number) =>
  (worker * layout.slots + slot) * layout.steps + step;

export const ringBytes = (workers: number) => RING_BYTES + workers * ERROR_TEXT_BYTES;

/** A node as the fallback runner rebuilds it in a worker: plain data (structured-cloneable). */
export interface NodeData {
  readonly type: string;
  readonly name: string;
  readonly params: ReadonlyArray<readonly [string, Param]>;
  /** Weights with their data in the arena (byte offset), or none. */
  readonly weights: ReadonlyArray<readonly [string, { dtype: DType | null; shape: Shape; offset: number | undefined }]>;
  readonly source: { file: string; line: number } | undefined;
}

/**
 * One step of a program: a kernel kind and its numbers. Offsets inside TensorViews are relative to the
 * slot base (a frame's activations); other byte offsets are absolute. A graph node lowers to one or more
 * steps; the main thread runs a step's tiles once the steps it depends on are done.
 */
export type Step =
  | { readonly kind: 'gemm'; readonly label: string; readonly params: readonly number[]; readonly m: number; readonly panels: number; readonly tileM: number; readonly tileN: number }
  /** A kernel over a range of work units: fn(params[slot], u0, u1) for tile t's units [t*perTile, (t+1)*perTile). */
  | { readonly kind: 'range'; readonly label: string; readonly fn: RangeKernelName; readonly params: readonly number[]; readonly units: number; readonly perTile: number }
  | { readonly kind: 'fallback'; readonly label: string; readonly node: NodeData; readonly inputs: readonly TensorView[]; readonly outputs: readonly TensorView[] }
  | { readonly kind: 'to-nhwc'; readonly label: string; readonly src: TensorView; readonly dst: TensorView; readonly rowsPerTile: number }
  | { readonly kind: 'to-nchw'; readonly label: string; readonly src: TensorView; readonly dst: TensorView; readonly rowsPerTile: number }
  | { readonly kind: 'expr'; readonly label: string; readonly source: string; readonly inputs: readonly TensorView[]; readonly output: TensorView; readonly perTile: number }
  /**
   * A pnnx.Expression compiled to SIMD wasm (expr/compile-wasm.ts): the module's bytes in base64 (code
   * travels as text, like the JavaScript kernel's source); run(out, inputs..., begin, end) over output
   * elements [t*perTile, (t+1)*perTile) of `size`.
   */
  | { readonly kind: 'expr-wasm'; readonly label: string; readonly wasm: string; readonly inputs: readonly TensorView[]; readonly output: TensorView; readonly size: number; readonly perTile: number }
  /**
   * YOLOv5 Detect decoding of one map: src holds the head's sigmoid-ed 1x1 conv output (N*H*W pixels of
   * na*no); rows of dst (N, rows, no) from rowStart on get the boxes. Tables (absolute offsets) hold the grid
   * cells and anchor sizes per (anchor, y, x); work units are the N*H image rows.
   */
  | {
    readonly kind: 'yolo-decode'; readonly label: string; readonly src: TensorView; readonly dst: TensorView;
    readonly n: number; readonly h: number; readonly w: number; readonly na: number; readonly no: number;
    readonly rowStart: number; readonly rows: number; readonly cells: number; readonly anchors: number;
    readonly stride: number; readonly legacy: boolean; readonly perTile: number;
  };

export type StepKind = Step['kind'];

export interface Program {
  readonly steps: readonly Step[];
  /** Byte offset of each slot's activation region. */
  readonly slotBases: readonly number[];
  /** Per step: its tiles, and the steps that depend on it (for chained frames). */
  readonly tiles: readonly number[];
  readonly successors: readonly (readonly number[])[];
}

/** The one long-lived piscina task each worker runs: serve the ring until SHUTDOWN. */
export interface ServeTask {
  readonly kind: 'serve';
  readonly worker: number;
  readonly memory: SharedMemory;
  readonly module: WasmModule;
  readonly variant: SimdVariant;
  readonly ring: RingLayout;
  readonly program: Program;
}

/** Every message a worker accepts; anything else is rejected by kind. */
export type WorkerTask = ServeTask;
