// Entry of the kernel module (both builds). Every export here is part of the typed interface in
// ../module.ts; the ABI constants are re-exported as wasm globals so the loader can check that this
// binary was built from the same ../abi.ts it was given.
export * from '../abi';
export { f32_gemm_4x8, f32_gemm_4x8_tiles } from './gemm';
export { f32_exp_x4 } from './exp';
export { f32x4_peak_u12 } from './peak';
// convolution kernels
export { f32_igemm_4x8 } from './igemm';
export { f32_dwconv } from './dwconv';
export { f32_conv_pad } from './conv-pad';
// pooling, elementwise, resize, softmax, copy kernels
export { f32_maxpool_nhwc, f32_avgpool_nhwc, f32_adaptive_pool_nhwc, f32_global_avgpool_nhwc } from './pool';
export { f32_unary_rows, f32_affine_rows, f32_binary_rows } from './eltwise';
export { f32_resize_nearest_nhwc, f32_resize_bilinear_nhwc } from './resize';
export { f32_softmax_rows } from './softmax';
export { f32_copy_rows } from './copy';
