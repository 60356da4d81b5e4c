// Loads the SIMD kernel module onto a shared WebAssembly.Memory.
//
// 1. createKernelMemory() makes the shared memory (one per engine; its buffer is a SharedArrayBuffer that
//    every worker instantiates the same module on).
// 2. chooseVariant() picks the build: 'relaxed' (f32x4.relaxed_madd -> FMA) when this runtime validates
//    relaxed SIMD (Node >= 22, or Node 20 run with --experimental-wasm-relaxed-simd), 'plain' otherwise;
//    FLOWINFER_SIMD=plain|relaxed|auto or the `simd` option forces one.
// 3. compileKernels() compiles build/kernels[-relaxed].wasm once per thread; a WebAssembly.Module can also
//    be posted to a worker (workerData) so workers skip the compile.
// 4. instantiateKernels() instantiates on the memory and checks that the binary was built from the same
//    abi.ts as this code (every ABI constant is exported by the module as a global).
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.ts';
import { FlowinferError } from '../errors.ts';
import * as abi from './abi.ts';
import { wasm, type SharedMemory, type WasmModule } from './wasm.ts';

export type SimdVariant = 'plain' | 'relaxed';
export type SimdRequest = SimdVariant | 'auto';

/** The kernel functions. Pointers are byte offsets into the shared memory; see abi.ts for layouts. */
export interface KernelExports {
  /** GEMM of the parameter block at `params`, rows [m0, m1) x panels [n0, n1) (a panel is 8 columns). */
  f32_gemm_4x8(params: number, m0: number, m1: number, n0: number, n1: number): void;
  /** GEMM tiles taken from the atomic counter params + GEMM_NEXT until none is left; returns tiles run. */
  f32_gemm_4x8_tiles(params: number): number;
  /** y[i] = exp(x[i]) for i < n, the approximation the SiLU/Sigmoid epilogues use. */
  f32_exp_x4(x: number, y: number, n: number): void;
  /** `iters` x 12 f32x4 multiply-add chains acc = acc * mul + add (96 FLOP each): the SIMD ceiling. */
  f32x4_peak_u12(iters: number, mul: number, add: number): number;
  // convolution kernels
  /** Work units [u0, u1) of the IGEMM convolution at `params` (abi.ts IGEMM_*; glue in conv.ts). */
  f32_igemm_4x8(params: number, u0: number, u1: number): void;
  /** Work units (output rows x channel chunks) [u0, u1) of the depthwise convolution at `params` (DW_*). */
  f32_dwconv(params: number, u0: number, u1: number): void;
  /** Padded rows [u0, u1) of the copy at `params` (CPAD_*), in front of a small-channel convolution. */
  f32_conv_pad(params: number, u0: number, u1: number): void;
  // pooling, elementwise, resize, softmax, copy kernels (blocks in abi.ts; glue in pool.ts, eltwise.ts,
  // resize.ts, softmax.ts, copy.ts)
  /** Output rows [u0, u1) (row = n * OH + oy) of the max pool at `params` (POOL_*). */
  f32_maxpool_nhwc(params: number, u0: number, u1: number): void;
  /** Output rows [u0, u1) of the average pool at `params` (POOL_*). */
  f32_avgpool_nhwc(params: number, u0: number, u1: number): void;
  /** Output rows [u0, u1) of the adaptive max or average pool at `params` (POOL_*). */
  f32_adaptive_pool_nhwc(params: number, u0: number, u1: number): void;
  /** Units [u0, u1) = (image, POOL_GLOBAL_BLOCK channels) of the global average pool at `params` (POOL_*). */
  f32_global_avgpool_nhwc(params: number, u0: number, u1: number): void;
  /** Rows [u0, u1) of the activation at `params` (ROW_*, ROW_OP = ACT_* or UNARY_*). */
  f32_unary_rows(params: number, u0: number, u1: number): void;
  /** Rows [u0, u1) of y = x * scale[c] + shift[c] at `params` (ROW_*). */
  f32_affine_rows(params: number, u0: number, u1: number): void;
  /** Rows [u0, u1) of the broadcasting binary op at `params` (BIN_*). */
  f32_binary_rows(params: number, u0: number, u1: number): void;
  /** Output rows [u0, u1) of the nearest resize at `params` (RS_*). */
  f32_resize_nearest_nhwc(params: number, u0: number, u1: number): void;
  /** Output rows [u0, u1) of the bilinear resize at `params` (RS_*). */
  f32_resize_bilinear_nhwc(params: number, u0: number, u1: number): void;
  /** Rows [u0, u1) of the softmax or log-softmax at `params` (ROW_*, ROW_OP = SOFTMAX_*). */
  f32_softmax_rows(params: number, u0: number, u1: number): void;
  /** Rows [u0, u1) of every source of the strided copy at `params` (COPY_*). */
  f32_copy_rows(params: number, u0: number, u1: number): void;
}

/** The kernels that take (params, u0, u1): a parameter block and a range of work units [u0, u1). */
export type RangeKernelName = {
  [K in keyof KernelExports]: KernelExports[K] extends (params: number, u0: number, u1: number) => void ? K : never;
}[keyof KernelExports];

export interface Kernels {
  readonly variant: SimdVariant;
  readonly memory: SharedMemory;
  readonly exports: KernelExports;
}

const KERNEL_FUNCTIONS = [
  'f32_gemm_4x8', 'f32_gemm_4x8_tiles', 'f32_exp_x4', 'f32x4_peak_u12',
  // convolution kernels
  'f32_igemm_4x8', 'f32_dwconv', 'f32_conv_pad',
  // pooling, elementwise, resize, softmax, copy kernels
  'f32_maxpool_nhwc', 'f32_avgpool_nhwc', 'f32_adaptive_pool_nhwc', 'f32_global_avgpool_nhwc',
  'f32_unary_rows', 'f32_affine_rows', 'f32_binary_rows', 'f32_resize_nearest_nhwc', 'f32_resize_bilinear_nhwc',
  'f32_softmax_rows', 'f32_copy_rows',
] as const;

const BINARIES: Record<SimdVariant, string> = {
  plain: packagePath('build', 'kernels.wasm'),
  relaxed: packagePath('build', 'kernels-relaxed.wasm'),
};

/** Pages of a shared memory for the kernels: at least the reserved region, at most MAX_PAGES. */
export function createKernelMemory(options: { initialPages?: number; maximumPages?: number } = {}): SharedMemory {
  const minimum = abi.RESERVED_BYTES / abi.PAGE_BYTES;
  const initial = options.initialPages ?? minimum;
  const maximum = options.maximumPages ?? abi.MAX_PAGES;
  if (!Number.isInteger(initial) || initial < minimum || !Number.isInteger(maximum) || maximum < initial || maximum > abi.MAX_PAGES) {
    throw new FlowinferError(
      `kernel memory: initialPages ${initial} / maximumPages ${maximum} must be integers with ` +
        `${minimum} <= initialPages <= maximumPages <= ${abi.MAX_PAGES}`,
    );
  }
  return new wasm.Memory({ initial, maximum, shared: true });
}

// (module (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f32x4.relaxed_madd))
const RELAXED_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b, // type: (v128 v128 v128) -> v128
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x0a, 0x0d, 0x01, 0x0b, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0xfd, 0x85, 0x02, 0x0b, // code
]);

let relaxedSupported: boolean | undefined;

/** Whether this runtime validates relaxed SIMD (Node >= 22, or Node 20 with --experimental-wasm-relaxed-simd). */
export function relaxedSimdSupported(): boolean {
  relaxedSupported ??= wasm.validate(RELAXED_PROBE);
  return relaxedSupported;
}

/** The build to load: `request` (default: FLOWINFER_SIMD, default 'auto'); throws if 'relaxed' cannot run. */
export function chooseVariant(request: SimdRequest | undefined = undefined): SimdVariant {
  const env = process.env.FLOWINFER_SIMD;
  const wanted = request ?? (env === undefined || env === '' ? 'auto' : env);
  if (wanted !== 'auto' && wanted !== 'plain' && wanted !== 'relaxed') {
    throw new FlowinferError(`FLOWINFER_SIMD=${wanted}: expected plain, relaxed or auto`);
  }
  if (wanted === 'plain') return 'plain';
  if (relaxedSimdSupported()) return 'relaxed';
  if (wanted === 'auto') return 'plain';
  throw new FlowinferError(
    `relaxed SIMD kernels requested (${request === undefined ? 'FLOWINFER_SIMD=relaxed' : "simd: 'relaxed'"}) ` +
      `but Node ${process.versions.node} does not validate relaxed SIMD: run node with --experimental-wasm-relaxed-simd ` +
      `(Node 20) or use Node >= 22`,
  );
}

const compiled = new Map<SimdVariant, WasmModule>();

/** The compiled kernel module of a build (cached per thread). */
export function compileKernels(variant: SimdVariant): WasmModule {
  let module = compiled.get(variant);
  if (module === undefined) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(BINARIES[variant]);
    } catch (cause) {
      throw new FlowinferError(`kernel module ${BINARIES[variant]} cannot be read (${String(cause)}): run npm run build:kernels`);
    }
    module = new wasm.Module(bytes);
    compiled.set(variant, module);
  }
  return module;
}

/** Instantiates a compiled kernel module on `memory`, after checking its ABI against abi.ts. */
export function instantiateKernels(module: WasmModule, memory: SharedMemory, variant: SimdVariant): Kernels {
  const instance = new wasm.Instance(module, { env: { memory } });
  const exported = instance.exports;
  for (const [name, value] of Object.entries(abi)) {
    const global = exported[name];
    const built = global instanceof wasm.Global ? (global.value as number) : undefined;
    if (built !== value) {
      throw new FlowinferError(
        `kernel module (${variant}) was built from another src/kernels/abi.ts: ${name} is ` +
          `${built === undefined ? 'missing' : built} in the binary, ${value} in abi.ts: run npm run build:kernels`,
      );
    }
  }
  for (const name of KERNEL_FUNCTIONS) {
    if (typeof exported[name] !== 'function') {
      throw new FlowinferError(`kernel module (${variant}) lacks the function ${name}: run npm run build:kernels`);
    }
  }
  return { variant, memory, exports: exported as unknown as KernelExports };
}

/** chooseVariant + compileKernels + instantiateKernels. */
export function loadKernels(memory: SharedMemory, options: { simd?: SimdRequest } = {}): Kernels {
  const variant = chooseVariant(options.simd);
  return instantiateKernels(compileKernels(variant), memory, variant);
}
