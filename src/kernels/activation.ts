// Names of the GEMM epilogue activations and their kernel codes (the codes themselves live in abi.ts).
import { FlowinferError } from '../errors.ts';
import {
  ACT_HARDSIGMOID,
  ACT_HARDSWISH,
  ACT_LEAKY_RELU,
  ACT_NONE,
  ACT_RELU,
  ACT_RELU6,
  ACT_SIGMOID,
  ACT_SILU,
} from './abi.ts';

export const ACTIVATIONS = {
  none: ACT_NONE,
  relu: ACT_RELU,
  relu6: ACT_RELU6,
  silu: ACT_SILU,
  hardswish: ACT_HARDSWISH,
  sigmoid: ACT_SIGMOID,
  leaky_relu: ACT_LEAKY_RELU,
  hardsigmoid: ACT_HARDSIGMOID,
} as const;

export type Activation = keyof typeof ACTIVATIONS;

export function activationCode(name: string): number {
  const code = (ACTIVATIONS as Record<string, number>)[name];
  if (code === undefined) {
    throw new FlowinferError(`unknown activation "${name}": expected one of ${Object.keys(ACTIVATIONS).join(', ')}`);
  }
  return code;
}
