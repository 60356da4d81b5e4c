// Entry of the kernel module (both builds). Every export here is part of the typed interface in
// ../module.ts; the ABI constants are re-exported as wasm globals so the loader can check that this
// binary was built from the same ../abi.ts it was given.
export * from '../abi';
export { f32_gemm_4x8, f32_gemm_4x8_tiles } from './gemm';
export { f32_exp_x4 } from './exp';
export { f32x4_peak_u12 } from './peak';
