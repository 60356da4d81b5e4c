// The one definition of everything TypeScript and the AssemblyScript kernels must agree on.
//
// This file is compiled by BOTH compilers: TypeScript imports it as './abi.ts', the kernels as '../abi',
// and the kernel module re-exports every constant as a wasm global that the loader compares with these
// values at instantiation (a stale build/ fails loudly). scripts/build-kernels.mjs also reads
// STATIC_DATA_BASE and MAX_PAGES from here for the asc command line. So: only
// `export const NAME = <integer literal>;` lines (AssemblyScript infers i32), nothing else.

// ---- Shared memory ------------------------------------------------------------------------------------
//
//   0      64             1024                      32768                    65536 = RESERVED_BYTES
//   ├ null ┼─ control ─────┼─ kernel static data ─────┼─ zero buffer ───────────┼─ arena (src/tensor) ...
//   guard    words (workers)  (asc --memoryBase; empty)  32 KiB of 0.0f, never      weights, activations,
//   never    task ring head,  checked by the build        written (IGEMM padding     parameter blocks
//   written  barriers                                     taps, phase 2)
//
// Every kernel pointer is a byte offset into the memory; v128 data wants 16-byte alignment.

/** Bytes of one wasm page. */
export const PAGE_BYTES = 65536;
/** Bytes at the bottom of the memory owned by the kernel ABI; the arena starts here. */
export const RESERVED_BYTES = 65536;
/** [0, NULL_GUARD_BYTES) is never written, so a null-pointer write shows up in tests. */
export const NULL_GUARD_BYTES = 64;
/** [CONTROL_BASE, STATIC_DATA_BASE): control words for src/workers (task ring header, barriers). */
export const CONTROL_BASE = 64;
/** asc --memoryBase: any static data of the kernel module lands here, below ZERO_BUFFER (the build checks). */
export const STATIC_DATA_BASE = 1024;
/** [ZERO_BUFFER, RESERVED_BYTES): zeros that padding taps point at; nothing writes there. */
export const ZERO_BUFFER = 32768;
/**
 * Memory maximum declared by the kernel module: the wasm32 limit, 4 GiB. A shared memory cannot move, so
 * V8 reserves (virtual address space only) its maximum up front; the arena can then grow in place.
 */
export const MAX_PAGES = 65536;

// ---- Epilogue activations (GEMM_ACT) --------------------------------------------------------------------

export const ACT_NONE = 0;
/** max(x, 0) */
export const ACT_RELU = 1;
/** min(max(x, 0), 6) */
export const ACT_RELU6 = 2;
/** x * sigmoid(x) */
export const ACT_SILU = 3;
/** x * min(max(x + 3, 0), 6) / 6 */
export const ACT_HARDSWISH = 4;
/** 1 / (1 + exp(-x)) */
export const ACT_SIGMOID = 5;
/** x >= 0 ? x : alpha * x  (alpha = GEMM_ALPHA) */
export const ACT_LEAKY_RELU = 6;
/** One past the last code. */
export const ACT_COUNT = 7;

// ---- Packed GEMM ------------------------------------------------------------------------------------------

/** Output channels per packed weight panel (columns of C per micro-tile). */
export const GEMM_NR = 8;
/** Rows of C per micro-tile. */
export const GEMM_MR = 4;

// GEMM parameter block: 128 bytes, 16-byte aligned, little-endian 32-bit fields.
// C[m, n] = act(bias[n] + sum_k A[m, k] * W[n, k]) for m < M, n < N.
//
//   0 A       u32  byte offset of A[0, 0]              32 ACT     u32  activation code (ACT_*)
//   4 LDA     u32  A row stride, floats (>= K)         36 ALPHA   f32  activation parameter
//   8 W       u32  byte offset of the packed panels    40 TILE_M  u32  rows per scheduled tile (multiple of MR)
//  12 C       u32  byte offset of C[0, 0]              44 TILE_N  u32  panels (of NR columns) per scheduled tile,
//                                                                     and per L2 chunk inside any block
//  16 LDC     u32  C row stride, floats (>= N)         64 NEXT    i32  tile counter: 0 before dispatch; each
//  20 M       u32  rows                                               worker takes tiles with atomic.add
//  24 N       u32  columns (output channels)                         (own cache line: the only field written)
//  28 K       u32  reduction length
export const GEMM_A = 0;
export const GEMM_LDA = 4;
export const GEMM_W = 8;
export const GEMM_C = 12;
export const GEMM_LDC = 16;
export const GEMM_M = 20;
export const GEMM_N = 24;
export const GEMM_K = 28;
export const GEMM_ACT = 32;
export const GEMM_ALPHA = 36;
export const GEMM_TILE_M = 40;
export const GEMM_TILE_N = 44;
export const GEMM_NEXT = 64;
export const GEMM_PARAMS_BYTES = 128;
