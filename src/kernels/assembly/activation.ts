// The fused GEMM epilogue: one activation applied to an accumulator vector before it is stored.
// `act` is always a compile-time constant at the call site (each activation gets its own copy of the
// GEMM loops, see gemm.ts), so all but one branch is folded away.
//
// Clamps use pmin/pmax (one minps/maxps on x64; f32x4.min/max need a NaN/-0 fix-up sequence) with the
// bound as FIRST operand: pmax(b, x) = b < x ? x : b, so a NaN accumulator yields the bound, like XNNPACK.
import {
  ACT_HARDSIGMOID,
  ACT_HARDSWISH,
  ACT_LEAKY_RELU,
  ACT_NONE,
  ACT_RELU,
  ACT_RELU6,
  ACT_SIGMOID,
  ACT_SILU,
} from '../abi';
import { sigmoid4 } from './exp';

// @ts-ignore: decorator
@inline export function activate(x: v128, act: i32, alpha: v128): v128 {
  const zero = f32x4.splat(0.0);
  const six = f32x4.splat(6.0);
  if (act == ACT_NONE) return x;
  if (act == ACT_RELU) return f32x4.pmax(zero, x);
  if (act == ACT_RELU6) return f32x4.pmin(six, f32x4.pmax(zero, x));
  if (act == ACT_SILU) return f32x4.mul(x, sigmoid4(x));
  if (act == ACT_HARDSWISH) {
    const g = f32x4.pmin(six, f32x4.pmax(zero, f32x4.add(x, f32x4.splat(3.0))));
    return f32x4.mul(f32x4.mul(x, g), f32x4.splat(<f32>(1.0 / 6.0)));
  }
  if (act == ACT_SIGMOID) return sigmoid4(x);
  if (act == ACT_LEAKY_RELU) return v128.bitselect(x, f32x4.mul(x, alpha), f32x4.ge(x, zero));
  // relu6(x + 3) / 6 in PyTorch's order of operations (x / 6 + 0.5 rounds differently near the bounds)
  if (act == ACT_HARDSIGMOID) {
    return f32x4.mul(f32x4.pmin(six, f32x4.pmax(zero, f32x4.add(x, f32x4.splat(3.0)))), f32x4.splat(<f32>(1.0 / 6.0)));
  }
  return x;
}
