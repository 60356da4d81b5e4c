// flowinfer's public API.
export * from './errors.ts';
export { Tensor } from './tensor/tensor.ts';
export type { DType } from './tensor/dtype.ts';
export type { Shape } from './tensor/shape.ts';
