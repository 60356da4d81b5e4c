// The benchmark's command block (int32 words in the shared memory), shared by bench/kernels/pool.ts and
// the plain-JavaScript worker.mjs, so it is JavaScript with a declaration file beside it.
export const CTL_SEQ = 0; // bumped by the main thread per command; workers Atomics.wait on it
export const CTL_KIND = 1; // CMD_*
export const CTL_ARG = 2; // GEMM parameter block offset, or peak iterations
export const CTL_DONE = 3; // workers add 1 when finished; the main thread waits for the worker count
export const CTL_WORDS = 16; // 64 bytes

export const CMD_EXIT = 0;
export const CMD_GEMM_TILES = 1;
export const CMD_PEAK = 2;
