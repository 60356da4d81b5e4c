// Command block of the range-kernel benchmark (int32 words in the shared memory), shared by
// bench/kernels/range-pair.ts and the plain-JavaScript range-worker.mjs (hence JavaScript, typed by the
// .d.mts beside it). One command = one range step, split into tiles that the main thread and the worker
// claim as the engine's task ring does (protocol.ts): CAS on a word that holds the command's sequence in
// its high 16 bits and the next tile in its low 16, so a thread that looks late can never claim a tile
// of another command.
export const RC_SEQ = 0; // command sequence (monotonic); the worker polls it, then Atomics.wait
export const RC_KIND = 1; // RCMD_*
export const RC_FN = 2; // index into the worker's list of kernel names
export const RC_PARAMS = 3; // parameter block offset
export const RC_UNITS = 4; // work units of the step
export const RC_PER_TILE = 5; // units per tile
export const RC_TILES = 6; // tiles of the step
export const RC_CLAIM = 7; // (sequence & 0xffff) << 16 | next tile
export const RC_FINISHED = 8; // tiles finished; the main thread waits until it reaches RC_TILES
export const RC_WORDS = 16; // 64 bytes

export const RCMD_EXIT = 0;
export const RCMD_RANGE = 1;
