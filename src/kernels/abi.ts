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
// convolution kernels
/** min(max(x + 3, 0), 6) / 6 = clamp(x / 6 + 1/2, 0, 1) */
export const ACT_HARDSIGMOID = 7;
/** One past the last code. */
export const ACT_COUNT = 8;

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

// ---- convolution kernels -------------------------------------------------------------------------------
//
// GEMM residual (fields of the GEMM parameter block above, 0 = no residual):
// C[m, n] = act(bias[n] + sum_k A[m, k] * W[n, k] + R[m, n]).
//
//  48 R       u32  byte offset of R[0, 0], or 0: no residual
//  52 LDR     u32  R row stride, floats (>= N)
export const GEMM_R = 48;
export const GEMM_LDR = 52;

// IGEMM parameter block (f32_igemm_4x8): 128 bytes, 16-byte aligned, little-endian 32-bit fields. A dense or
// grouped convolution over NHWC images as an indirect GEMM (kernels.md section 2.2). For image b, output
// pixel p (of PIXELS = OH * OW), group g and channel j < N of the group:
//
//   out[b, p, g*N + j] = act(bias + sum_{t < TAPS, k < K} x(b, IND[p, t]) [g*K + k] * W[g][j, t, k] + R[b, p, g*N + j])
//
// IND holds, per tile of 4 output pixels, per tap, 4 i32: the byte offset from IN of the input pixel that
// the tap reads (reflected, replicated or wrapped for those padding modes), or -1 for a zero-padding tap
// (read from ZERO). Offsets are relative, so one buffer serves every slot and every image of a batch.
// The last tile repeats the last pixel. Packed weights (conv-pack.ts): per group, per panel of 8
// channels, bias[8] then (TAPS * K) rows of 8, tap-major.
//
//   0 IN        u32  byte offset of input image 0, pixel (0, 0), channel 0
//   4 IND       u32  byte offset of the indirection buffer (ceil(PIXELS / 4) * TAPS * 4 i32)
//   8 W         u32  packed weights, 16-byte aligned
//  12 C         u32  byte offset of output image 0, pixel 0, channel 0
//  16 LDC       u32  output pixel stride, floats
//  20 PIXELS    u32  output pixels per image
//  24 N         u32  output channels per group
//  28 K         u32  input channels per group, read per tap (pixels hold them contiguously)
//  32 ACT       u32  ACT_*
//  36 ALPHA     f32  activation parameter
//  40 TAPS      u32  taps per output pixel
//  44 CHUNK     u32  panels per work unit (a unit is 4 pixels x CHUNK panels of one group and image)
//  48 R         u32  residual byte offset (laid out like C) or 0
//  52 LDR       u32  residual pixel stride, floats
//  56 (unused)
//  60 ZERO      u32  byte offset of at least K zero floats
//  64 BATCH     u32  images
//  68 IN_IMAGE  u32  bytes from one input image to the next
//  72 C_IMAGE   u32  bytes from one output image to the next (PIXELS * LDC * 4 for a dense output; a
//                    transposed convolution's tap writes every s-th pixel of every s-th row, one input row
//                    per image). The residual, when there is one, is always dense (PIXELS * LDR floats).
// Work unit u (f32_igemm_4x8(p, u0, u1)): tile u % T (T = ceil(PIXELS / 4)), then image, then panel chunk,
// then group, so consecutive units share their weights.
export const IGEMM_IN = 0;
export const IGEMM_IND = 4;
export const IGEMM_W = 8;
export const IGEMM_C = 12;
export const IGEMM_LDC = 16;
export const IGEMM_PIXELS = 20;
export const IGEMM_N = 24;
export const IGEMM_K = 28;
export const IGEMM_ACT = 32;
export const IGEMM_ALPHA = 36;
export const IGEMM_TAPS = 40;
export const IGEMM_CHUNK = 44;
export const IGEMM_R = 48;
export const IGEMM_LDR = 52;
export const IGEMM_ZERO = 60;
export const IGEMM_BATCH = 64;
export const IGEMM_IN_IMAGE = 68;
export const IGEMM_C_IMAGE = 72;
export const IGEMM_PARAMS_BYTES = 128;

// Depthwise parameter block (f32_dwconv): 128 bytes. out[b, oy, ox, c] = act(bias[c] + R[b, oy, ox, c] +
// sum_{ky, kx} x[b, oy*SH - PT + ky*DH, ox*SW - PL + kx*DW, c] * w[c, ky, kx]), taps outside the image
// read zeros. Packed weights (conv-pack.ts): per group of 4 channels, bias[4] then KH*KW rows of 4.
//
//   0 IN      u32  input byte offset          48 R       u32  residual byte offset or 0
//   4 IN_PS   u32  input pixel stride, floats 52 LDR     u32  residual pixel stride
//   8 W       u32  packed weights             56 KH, 60 KW    u32  kernel
//  12 C       u32  output byte offset         64 SH, 68 SW    u32  stride
//  16 LDC     u32  output pixel stride        72 DH, 76 DW    u32  dilation
//  20 H, 24 WIDTH  u32  input size            80 PT, 84 PL    u32  padding before (top, left)
//  28 OH, 32 OW    u32  output size           88 CHUNK   u32  channels per work unit (multiple of 8)
//  36 CH      u32  channels                   92 BATCH   u32  images
//  40 ACT     u32  ACT_*
//  44 ALPHA   f32
// Work unit u (f32_dwconv(p, u0, u1)): output row u % (BATCH * OH) of channel chunk u / (BATCH * OH).
export const DW_IN = 0;
export const DW_IN_PS = 4;
export const DW_W = 8;
export const DW_C = 12;
export const DW_LDC = 16;
export const DW_H = 20;
export const DW_WIDTH = 24;
export const DW_OH = 28;
export const DW_OW = 32;
export const DW_CH = 36;
export const DW_ACT = 40;
export const DW_ALPHA = 44;
export const DW_R = 48;
export const DW_LDR = 52;
export const DW_KH = 56;
export const DW_KW = 60;
export const DW_SH = 64;
export const DW_SW = 68;
export const DW_DH = 72;
export const DW_DW = 76;
export const DW_PT = 80;
export const DW_PL = 84;
export const DW_CHUNK = 88;
export const DW_BATCH = 92;
export const DW_PARAMS_BYTES = 128;

// Padded-copy parameter block (f32_conv_pad): 64 bytes. Copies NHWC images into a dense (pixel stride =
// CH) padded buffer: out[b, yp, xp, :] = x[b, ROWS[yp], COLS[xp], :], or zeros where either table holds
// -1. The tables (i32, built at load) encode the padding mode. Small-channel convolutions (the RGB stem)
// then run as an IGEMM whose taps are whole kernel rows: KW * CH contiguous floats each.
//
//   0 IN        u32  input byte offset         24 HP       u32  padded rows per image
//   4 IN_PS     u32  input pixel stride        28 WP       u32  padded pixels per row
//   8 OUT       u32  output byte offset        32 WIDTH    u32  input pixels per row
//  12 CH        u32  channels                  36 IN_IMAGE u32  bytes from one input image to the next
//  16 ROWS      u32  i32 table of HP rows      40 BATCH    u32  images
//  20 COLS      u32  i32 table of WP columns
// Work unit u (f32_conv_pad(p, u0, u1)): padded row u of the BATCH * HP rows.
export const CPAD_IN = 0;
export const CPAD_IN_PS = 4;
export const CPAD_OUT = 8;
export const CPAD_CH = 12;
export const CPAD_ROWS = 16;
export const CPAD_COLS = 20;
export const CPAD_HP = 24;
export const CPAD_WP = 28;
export const CPAD_WIDTH = 32;
export const CPAD_IN_IMAGE = 36;
export const CPAD_BATCH = 40;
export const CPAD_PARAMS_BYTES = 64;

// ---- pooling, elementwise, resize, softmax, copy kernels ------------------------------------------------
//
// These kernels see a tensor as ROWS of floats with a row stride: an NHWC tensor's pixels (a row = one
// pixel's C channels, stride = the pixel stride, >= C for a channel slice of a wider tensor), or a plain
// tensor's rows. Each is a range kernel fn(params, u0, u1) over work units [u0, u1) (protocol.ts `range`
// steps), so two workers can split one call. Glue (validation, tables, tile plans): src/kernels/{eltwise,
// softmax, copy, pool, resize}.ts. Blocks are 16-byte aligned, little-endian, u32 fields unless marked.

// Row block (f32_unary_rows, f32_affine_rows, f32_softmax_rows): work unit = one row of C floats.
// When XS = YS = C the rows [u0, u1) are one contiguous span and run as one loop.
//
//   0 X      u32  byte offset of row 0 of the input    20 OP     u32  unary: ACT_* or UNARY_* code;
//   4 XS     u32  input row stride, floats (>= C)                       softmax: SOFTMAX_EXP or SOFTMAX_LOG
//   8 Y      u32  byte offset of row 0 of the output   24 ALPHA  f32  LeakyReLU slope, ELU alpha
//  12 YS     u32  output row stride, floats (>= C)     28 SCALE  u32  affine: byte offset of C floats
//  16 C      u32  floats per row                       32 SHIFT  u32  affine: byte offset of C floats
export const ROW_X = 0;
export const ROW_XS = 4;
export const ROW_Y = 8;
export const ROW_YS = 12;
export const ROW_C = 16;
export const ROW_OP = 20;
export const ROW_ALPHA = 24;
export const ROW_SCALE = 28;
export const ROW_SHIFT = 32;
export const ROW_PARAMS_BYTES = 64;
/** Unary codes beyond the epilogue activations (ACT_*): tanh(x). */
export const UNARY_TANH = 16;
/** x > 0 ? x : alpha * (exp(x) - 1) */
export const UNARY_ELU = 17;
/** softmax(x) along the row */
export const SOFTMAX_EXP = 0;
/** log_softmax(x) along the row */
export const SOFTMAX_LOG = 1;

// Binary block (f32_binary_rows): Y[r, c] = A[r, c] op B[r, c] for rows r of C floats. B broadcasts:
// row r reads B at B + 4 * ((r / G) * BG + (r % G) * BS), and SPLAT = 1 makes that one float for the
// whole row. An NHWC per-channel operand (N,C,1,1) has G = H*W, BS = 0, BG = C (0 when its N is 1); a
// scalar has SPLAT = 1, BS = BG = 0 (a constant lives in CONST, with B pointing at it).
//
//   0 A      u32  byte offset of row 0 of A            28 Y      u32  byte offset of output row 0
//   4 AS     u32  A row stride, floats                 32 YS     u32  output row stride, floats
//   8 B      u32  byte offset of B's first row         36 C      u32  floats per row
//  12 BS     u32  B row stride inside a group          40 OP     u32  BIN_* code
//  16 BG     u32  B stride from one group to the next  44 CONST  f32  a constant operand, if any
//  20 G      u32  rows per group (>= 1)
//  24 SPLAT  u32  1: B is one float per row
export const BIN_A = 0;
export const BIN_AS = 4;
export const BIN_B = 8;
export const BIN_BS = 12;
export const BIN_BG = 16;
export const BIN_G = 20;
export const BIN_SPLAT = 24;
export const BIN_Y = 28;
export const BIN_YS = 32;
export const BIN_C = 36;
export const BIN_OP = 40;
export const BIN_CONST = 44;
export const BIN_PARAMS_BYTES = 64;
export const BIN_ADD = 0;
export const BIN_SUB = 1;
export const BIN_MUL = 2;
export const BIN_DIV = 3;
/** NaN if either is NaN (torch.maximum) */
export const BIN_MAX = 4;
export const BIN_MIN = 5;
/** B - A (the broadcast operand is always B, so sub and div need their reversed forms) */
export const BIN_RSUB = 6;
/** B / A */
export const BIN_RDIV = 7;

// Pooling block (f32_maxpool_nhwc, f32_avgpool_nhwc, f32_adaptive_pool_nhwc: work unit = one output row
// (n, oy) of OW pixels; f32_global_avgpool_nhwc: work unit = (n, block of POOL_GLOBAL_BLOCK channels)).
//
//   0 X      u32  byte offset of input pixel (0,0,0)   40 KW     u32  kernel width
//   4 XS     u32  input pixel stride, floats (>= C)    44 SH     u32  stride (rows)
//   8 Y      u32  byte offset of output pixel (0,0,0)  48 SW     u32  stride (columns)
//  12 YS     u32  output pixel stride, floats (>= C)   52 PH     u32  padding (rows)
//  16 C      u32  channels                             56 PW     u32  padding (columns)
//  20 H      u32  input rows                           60 DH     u32  dilation (rows; max pool only)
//  24 W      u32  input columns                        64 DW     u32  dilation (columns)
//  28 OH     u32  output rows                          68 MODE   u32  POOL_MODE_*
//  32 OW     u32  output columns                       72 DIV    i32  average divisor override, 0: none
//  36 KH     u32  kernel height
export const POOL_X = 0;
export const POOL_XS = 4;
export const POOL_Y = 8;
export const POOL_YS = 12;
export const POOL_C = 16;
export const POOL_H = 20;
export const POOL_W = 24;
export const POOL_OH = 28;
export const POOL_OW = 32;
export const POOL_KH = 36;
export const POOL_KW = 40;
export const POOL_SH = 44;
export const POOL_SW = 48;
export const POOL_PH = 52;
export const POOL_PW = 56;
export const POOL_DH = 60;
export const POOL_DW = 64;
export const POOL_MODE = 68;
export const POOL_DIV = 72;
export const POOL_PARAMS_BYTES = 128;
/** Maximum over the window's cells inside the input (padding never wins); NaN wins. */
export const POOL_MODE_MAX = 0;
/** Sum / cells of the window inside the input (count_include_pad=False; adaptive average). */
export const POOL_MODE_AVG = 1;
/** Sum / cells of the window clipped to the padded input (count_include_pad=True). */
export const POOL_MODE_AVG_PAD = 2;
/** Channels per work unit of f32_global_avgpool_nhwc. */
export const POOL_GLOBAL_BLOCK = 16;

// Resize block (f32_resize_nearest_nhwc, f32_resize_bilinear_nhwc): work unit = one output row (n, oy).
// Index tables are built by the glue with PyTorch's rules: nearest: YTAB[oy], XTAB[ox] = source row /
// column (i32); bilinear: 4 words per entry, (i0 i32, i1 i32, w0 f32, w1 f32), out = w0 * x[i0] + w1 * x[i1].
//
//   0 X      u32  byte offset of input pixel (0,0,0)   24 W      u32  input columns
//   4 XS     u32  input pixel stride, floats           28 OH     u32  output rows
//   8 Y      u32  byte offset of output pixel (0,0,0)  32 OW     u32  output columns
//  12 YS     u32  output pixel stride, floats          36 YTAB   u32  byte offset of the row table
//  16 C      u32  channels                             40 XTAB   u32  byte offset of the column table
//  20 H      u32  input rows
export const RS_X = 0;
export const RS_XS = 4;
export const RS_Y = 8;
export const RS_YS = 12;
export const RS_C = 16;
export const RS_H = 20;
export const RS_W = 24;
export const RS_OH = 28;
export const RS_OW = 32;
export const RS_YTAB = 36;
export const RS_XTAB = 40;
export const RS_PARAMS_BYTES = 64;

// Copy block (f32_copy_rows, torch.cat): for each of COUNT sources and each row r in [u0, u1):
// Y + 4 * (r * YS + DOFF) <- LEN floats at SRC + 4 * r * SS. Entries follow the header.
//
//   0 Y      u32  byte offset of output row 0          entry i at COPY_ENTRIES + i * COPY_ENTRY_BYTES:
//   4 YS     u32  output row stride, floats              +0 SRC   u32  byte offset of the source's row 0
//   8 COUNT  u32  sources                                +4 SS    u32  source row stride, floats
//                                                        +8 LEN   u32  floats per row
//                                                       +12 DOFF  u32  floats from the output row's start
export const COPY_Y = 0;
export const COPY_YS = 4;
export const COPY_COUNT = 8;
export const COPY_ENTRIES = 16;
export const COPY_ENTRY_BYTES = 16;
export const COPY_SRC = 0;
export const COPY_SS = 4;
export const COPY_LEN = 8;
export const COPY_DOFF = 12;
