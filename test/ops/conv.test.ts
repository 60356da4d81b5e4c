// nn.Conv2d and nn.ConvTranspose2d references: hand-computed cases, and random configurations against
// oracles written differently here (explicit padding + im2col + matmul; transposed convolution as
// zero insertion + padding + convolution with the flipped kernel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { NodeError } from '../../src/errors.ts';
import type { BoundOp } from '../../src/ops/op.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { arange, assertClose, bind, randomTensor, run1 } from './support.ts';

interface ConvConfig {
  n: number; groups: number; icg: number; ocg: number; h: number; w: number;
  kh: number; kw: number; sh: number; sw: number; dh: number; dw: number; ph: number; pw: number;
  mode: 'zeros' | 'reflect' | 'replicate' | 'circular'; bias: boolean;
}

function convOp(c: ConvConfig, weight: Tensor, bias: Tensor | undefined, extra: Record<string, string> = {}): BoundOp {
  return bind('nn.Conv2d', {
    params: {
      in_channels: String(c.groups * c.icg), out_channels: String(c.groups * c.ocg), kernel_size: `(${c.kh},${c.kw})`,
      stride: `(${c.sh},${c.sw})`, dilation: `(${c.dh},${c.dw})`, padding: `(${c.ph},${c.pw})`, padding_mode: c.mode,
      groups: String(c.groups), bias: bias ? 'True' : 'False', ...extra,
    },
    weights: bias ? { weight, bias } : { weight },
  });
}

/** 1-D padding built from slices, the way numpy.pad describes the modes. */
function pad1d(row: number[], before: number, after: number, mode: ConvConfig['mode']): number[] {
  const rev = (a: number[]) => [...a].reverse();
  const n = row.length;
  switch (mode) {
    case 'zeros': return [...new Array(before).fill(0), ...row, ...new Array(after).fill(0)];
    case 'replicate': return [...new Array(before).fill(row[0]), ...row, ...new Array(after).fill(row[n - 1])];
    case 'reflect': return [...rev(row.slice(1, before + 1)), ...row, ...rev(row.slice(n - 1 - after, n - 1))];
    case 'circular': return [...row.slice(n - before), ...row, ...row.slice(0, after)];
  }
}

/** Conv as im2col + matmul over an explicitly padded input; returns (N, Cout, OH, OW) values. */
function im2colConv(c: ConvConfig, x: Tensor, weight: Tensor, bias: Tensor | undefined, padEnd = [c.ph, c.pw]): { shape: number[]; data: number[] } {
  const ci = c.groups * c.icg;
  const co = c.groups * c.ocg;
  const planes: number[][][] = []; // [n*ci][row][col], padded
  for (let p = 0; p < c.n * ci; p++) {
    const rows = Array.from({ length: c.h }, (_, y) => pad1d(Array.from(x.f32.subarray((p * c.h + y) * c.w, (p * c.h + y + 1) * c.w)), c.pw, padEnd[1]!, c.mode));
    const cols = rows[0]!.map((_, xx) => pad1d(rows.map((r) => r[xx]!), c.ph, padEnd[0]!, c.mode));
    planes.push(cols[0]!.map((_, y) => cols.map((col) => col[y]!)));
  }
  const hp = c.h + c.ph + padEnd[0]!;
  const wp = c.w + c.pw + padEnd[1]!;
  const oh = Math.floor((hp - c.dh * (c.kh - 1) - 1) / c.sh) + 1;
  const ow = Math.floor((wp - c.dw * (c.kw - 1) - 1) / c.sw) + 1;
  const out = new Array<number>(c.n * co * oh * ow).fill(0);
  const kSize = c.icg * c.kh * c.kw;
  for (let b = 0; b < c.n; b++) {
    for (let g = 0; g < c.groups; g++) {
      // Columns: one (icg*kh*kw) vector per output position.
      const columns: number[][] = [];
      for (let oy = 0; oy < oh; oy++) {
        for (let ox = 0; ox < ow; ox++) {
          const col: number[] = [];
          for (let i = 0; i < c.icg; i++) {
            for (let ky = 0; ky < c.kh; ky++) {
              for (let kx = 0; kx < c.kw; kx++) col.push(planes[b * ci + g * c.icg + i]![oy * c.sh + ky * c.dh]![ox * c.sw + kx * c.dw]!);
            }
          }
          columns.push(col);
        }
      }
      for (let o = 0; o < c.ocg; o++) {
        const oc = g * c.ocg + o;
        const row = Array.from(weight.f32.subarray(oc * kSize, (oc + 1) * kSize));
        columns.forEach((col, pos) => {
          out[(b * co + oc) * oh * ow + pos] = col.reduce((s, v, k) => s + v * row[k]!, bias ? bias.f32[oc]! : 0);
        });
      }
    }
  }
  return { shape: [c.n, co, oh, ow], data: out };
}

const base: ConvConfig = { n: 1, groups: 1, icg: 1, ocg: 1, h: 3, w: 3, kh: 2, kw: 2, sh: 1, sw: 1, dh: 1, dw: 1, ph: 0, pw: 0, mode: 'zeros', bias: false };

test('conv2d: hand-computed diagonal kernel, kernel larger than the input, stride larger than the kernel', () => {
  const diag = convOp(base, Tensor.f32([1, 1, 2, 2], [1, 0, 0, 1]), undefined);
  assertClose(run1(diag, arange([1, 1, 3, 3])), [1, 1, 2, 2], [4, 6, 10, 12]);
  // A 5x5 kernel of ones over a 2x2 input padded by 2: every window covers the whole input.
  const big = convOp({ ...base, h: 2, w: 2, kh: 5, kw: 5, ph: 2, pw: 2 }, Tensor.f32([1, 1, 5, 5], new Float32Array(25).fill(1)), undefined);
  assertClose(run1(big, Tensor.f32([1, 1, 2, 2], [1, 2, 3, 4])), [1, 1, 2, 2], [10, 10, 10, 10]);
  const strided = convOp({ ...base, h: 5, w: 5, kh: 1, kw: 1, sh: 3, sw: 3 }, Tensor.f32([1, 1, 1, 1], [2]), undefined);
  assertClose(run1(strided, arange([1, 1, 5, 5])), [1, 1, 2, 2], [0, 6, 30, 36]);
});

test('conv2d: padding modes zeros, reflect, replicate, circular (hand-computed)', () => {
  const weight = Tensor.f32([1, 1, 1, 3], [1, 10, 100]);
  const x = Tensor.f32([1, 1, 1, 3], [1, 2, 3]);
  const expected = { zeros: [210, 321, 32], reflect: [212, 321, 232], replicate: [211, 321, 332], circular: [213, 321, 132] };
  for (const [mode, want] of Object.entries(expected)) {
    const op = convOp({ ...base, h: 1, w: 3, kh: 1, kw: 3, pw: 1, mode: mode as ConvConfig['mode'] }, weight, undefined);
    assertClose(run1(op, x), [1, 1, 1, 3], want);
  }
});

test('conv2d: padding=same puts the odd pixel after (even kernel), padding=valid, depthwise with bias, unbatched input', () => {
  const same = convOp({ ...base, h: 1, w: 3, kh: 1, kw: 2 }, Tensor.f32([1, 1, 1, 2], [1, 10]), undefined, { padding: 'same' });
  assertClose(run1(same, Tensor.f32([1, 1, 1, 3], [1, 2, 3])), [1, 1, 1, 3], [21, 32, 3]);
  const valid = convOp({ ...base, h: 1, w: 3, kh: 1, kw: 2 }, Tensor.f32([1, 1, 1, 2], [1, 10]), undefined, { padding: 'valid' });
  assertClose(run1(valid, Tensor.f32([1, 1, 1, 3], [1, 2, 3])), [1, 1, 1, 2], [21, 32]);
  const depthwise = convOp({ ...base, groups: 2, kh: 1, kw: 1, h: 2, w: 2 }, Tensor.f32([2, 1, 1, 1], [2, -1]), Tensor.f32([2], [0.5, 0]));
  assertClose(run1(depthwise, arange([1, 2, 2, 2])), [1, 2, 2, 2], [0.5, 2.5, 4.5, 6.5, -4, -5, -6, -7]);
  assertClose(run1(depthwise, arange([2, 2, 2])), [2, 2, 2], [0.5, 2.5, 4.5, 6.5, -4, -5, -6, -7]);
});

test('conv2d: named edge cases against im2col + matmul', () => {
  const cases: Array<Partial<ConvConfig>> = [
    { n: 3, icg: 3, ocg: 4, h: 7, w: 5, kh: 3, kw: 3, ph: 1, pw: 1, bias: true }, // batch 3, odd sizes
    { groups: 4, icg: 1, ocg: 1, h: 9, w: 9, kh: 3, kw: 3, sh: 2, sw: 2, ph: 1, pw: 1, bias: true }, // depthwise, stride 2
    { groups: 3, icg: 1, ocg: 2, h: 6, w: 7, kh: 5, kw: 5, ph: 2, pw: 2 }, // depthwise, multiplier 2
    { groups: 2, icg: 3, ocg: 2, h: 8, w: 6, kh: 3, kw: 2, dh: 2, dw: 3, ph: 2, pw: 1 }, // dilation, groups
    { icg: 2, ocg: 3, h: 5, w: 5, kh: 2, kw: 2, sh: 3, sw: 3 }, // stride > kernel
    { icg: 2, ocg: 2, h: 4, w: 5, kh: 3, kw: 3, ph: 2, pw: 3, mode: 'reflect', bias: true },
    { icg: 2, ocg: 2, h: 4, w: 5, kh: 3, kw: 3, ph: 3, pw: 2, sh: 2, mode: 'replicate' },
    { icg: 2, ocg: 2, h: 4, w: 5, kh: 3, kw: 3, ph: 4, pw: 5, mode: 'circular' },
    { h: 2, w: 2, kh: 7, kw: 7, ph: 3, pw: 3, bias: true }, // kernel larger than the input
  ];
  for (const [i, partial] of cases.entries()) {
    const c = { ...base, ...partial };
    const weight = randomTensor([c.groups * c.ocg, c.icg, c.kh, c.kw], 10 + i);
    const bias = c.bias ? randomTensor([c.groups * c.ocg], 20 + i) : undefined;
    const x = randomTensor([c.n, c.groups * c.icg, c.h, c.w], 30 + i);
    const want = im2colConv(c, x, weight, bias);
    assertClose(run1(convOp(c, weight, bias), x), want.shape, want.data, 1e-5, 1e-5);
  }
});

test('conv2d: random configurations match im2col + matmul (property)', () => {
  const config = fc.record({
    n: fc.integer({ min: 1, max: 3 }), groups: fc.integer({ min: 1, max: 3 }), icg: fc.integer({ min: 1, max: 3 }), ocg: fc.integer({ min: 1, max: 3 }),
    h: fc.integer({ min: 1, max: 8 }), w: fc.integer({ min: 1, max: 8 }), kh: fc.integer({ min: 1, max: 4 }), kw: fc.integer({ min: 1, max: 4 }),
    sh: fc.integer({ min: 1, max: 3 }), sw: fc.integer({ min: 1, max: 3 }), dh: fc.integer({ min: 1, max: 3 }), dw: fc.integer({ min: 1, max: 3 }),
    ph: fc.integer({ min: 0, max: 3 }), pw: fc.integer({ min: 0, max: 3 }),
    mode: fc.constantFrom('zeros' as const, 'reflect' as const, 'replicate' as const, 'circular' as const), bias: fc.boolean(), seed: fc.nat(),
  });
  fc.assert(fc.property(config, ({ seed, ...c }) => {
    fc.pre(c.h + 2 * c.ph >= c.dh * (c.kh - 1) + 1 && c.w + 2 * c.pw >= c.dw * (c.kw - 1) + 1);
    if (c.mode === 'reflect') fc.pre(c.ph < c.h && c.pw < c.w);
    if (c.mode === 'circular') fc.pre(c.ph <= c.h && c.pw <= c.w);
    const weight = randomTensor([c.groups * c.ocg, c.icg, c.kh, c.kw], seed);
    const bias = c.bias ? randomTensor([c.groups * c.ocg], seed + 1) : undefined;
    const x = randomTensor([c.n, c.groups * c.icg, c.h, c.w], seed + 2);
    const want = im2colConv(c, x, weight, bias);
    assertClose(run1(convOp(c, weight, bias), x), want.shape, want.data, 1e-5, 1e-5);
  }), { numRuns: 200, seed: 42 });
});

test('conv2d: reflect padding as large as the input is refused, naming node and param', () => {
  const op = convOp({ ...base, kh: 3, kw: 3, ph: 3, pw: 3, mode: 'reflect' }, randomTensor([1, 1, 3, 3], 1), undefined);
  assert.throws(() => op.reference([randomTensor([1, 1, 3, 3], 2)]), (e: unknown) =>
    e instanceof NodeError && /nn\.Conv2d node "op".*padding=\(3,3\) with padding_mode=reflect is too large/.test(e.message));
});

interface DeconvConfig extends ConvConfig { oph: number; opw: number }

function deconvOp(c: DeconvConfig, weight: Tensor, bias: Tensor | undefined): BoundOp {
  return bind('nn.ConvTranspose2d', {
    params: {
      in_channels: String(c.groups * c.icg), out_channels: String(c.groups * c.ocg), kernel_size: `(${c.kh},${c.kw})`,
      stride: `(${c.sh},${c.sw})`, dilation: `(${c.dh},${c.dw})`, padding: `(${c.ph},${c.pw})`, output_padding: `(${c.oph},${c.opw})`,
      groups: String(c.groups), bias: bias ? 'True' : 'False',
    },
    weights: bias ? { weight, bias } : { weight },
  });
}

/**
 * Transposed convolution as a plain convolution: insert stride-1 zeros between input pixels, pad each side
 * by d*(k-1)-p (a negative amount crops) plus output_padding after, and convolve (stride 1, dilation d)
 * with the kernel flipped and its in/out axes swapped.
 */
function zeroInsertionDeconv(c: DeconvConfig, x: Tensor, weight: Tensor, bias: Tensor | undefined): { shape: number[]; data: number[] } {
  const ci = c.groups * c.icg;
  const co = c.groups * c.ocg;
  const qh = c.dh * (c.kh - 1) - c.ph;
  const qw = c.dw * (c.kw - 1) - c.pw;
  const hp = (c.h - 1) * c.sh + 1 + 2 * qh + c.oph;
  const wp = (c.w - 1) * c.sw + 1 + 2 * qw + c.opw;
  const value = (b: number, ch: number, r: number, s: number): number => {
    const [dy, dx] = [r - qh, s - qw]; // position in the zero-inserted input
    if (dy < 0 || dx < 0 || dy % c.sh !== 0 || dx % c.sw !== 0) return 0;
    const [y, xx] = [dy / c.sh, dx / c.sw];
    return y < c.h && xx < c.w ? x.f32[((b * ci + ch) * c.h + y) * c.w + xx]! : 0;
  };
  const oh = hp - c.dh * (c.kh - 1);
  const ow = wp - c.dw * (c.kw - 1);
  const out: number[] = [];
  for (let b = 0; b < c.n; b++) {
    for (let oc = 0; oc < co; oc++) {
      const g = Math.floor(oc / c.ocg);
      for (let oy = 0; oy < oh; oy++) {
        for (let ox = 0; ox < ow; ox++) {
          let s = bias ? bias.f32[oc]! : 0;
          for (let i = 0; i < c.icg; i++) {
            const ic = g * c.icg + i;
            for (let ky = 0; ky < c.kh; ky++) {
              for (let kx = 0; kx < c.kw; kx++) {
                const flipped = weight.f32[((ic * c.ocg + (oc % c.ocg)) * c.kh + (c.kh - 1 - ky)) * c.kw + (c.kw - 1 - kx)]!;
                s += flipped * value(b, ic, oy + ky * c.dh, ox + kx * c.dw);
              }
            }
          }
          out.push(s);
        }
      }
    }
  }
  return { shape: [c.n, co, oh, ow], data: out };
}

test('conv_transpose2d: hand-computed block placement, padding crops, output_padding grows', () => {
  const c: DeconvConfig = { ...base, h: 2, w: 2, sh: 2, sw: 2, oph: 0, opw: 0 };
  const weight = Tensor.f32([1, 1, 2, 2], [1, 10, 100, 1000]);
  const x = Tensor.f32([1, 1, 2, 2], [1, 2, 3, 4]);
  assertClose(run1(deconvOp(c, weight, undefined), x), [1, 1, 4, 4], [1, 10, 2, 20, 100, 1000, 200, 2000, 3, 30, 4, 40, 300, 3000, 400, 4000]);
  assertClose(run1(deconvOp({ ...c, ph: 1, pw: 1 }, weight, undefined), x), [1, 1, 2, 2], [1000, 200, 30, 4]);
  assertClose(run1(deconvOp({ ...c, ph: 1, pw: 1, oph: 1, opw: 1 }, weight, undefined), x), [1, 1, 3, 3], [1000, 200, 2000, 30, 4, 40, 3000, 400, 4000]);
});

test('conv_transpose2d: random configurations match zero insertion + flipped-kernel convolution (property)', () => {
  const config = fc.record({
    n: fc.integer({ min: 1, max: 3 }), groups: fc.integer({ min: 1, max: 3 }), icg: fc.integer({ min: 1, max: 3 }), ocg: fc.integer({ min: 1, max: 3 }),
    h: fc.integer({ min: 1, max: 6 }), w: fc.integer({ min: 1, max: 6 }), kh: fc.integer({ min: 1, max: 4 }), kw: fc.integer({ min: 1, max: 4 }),
    sh: fc.integer({ min: 1, max: 4 }), sw: fc.integer({ min: 1, max: 4 }), dh: fc.integer({ min: 1, max: 3 }), dw: fc.integer({ min: 1, max: 3 }),
    ph: fc.integer({ min: 0, max: 4 }), pw: fc.integer({ min: 0, max: 4 }), oph: fc.integer({ min: 0, max: 3 }), opw: fc.integer({ min: 0, max: 3 }),
    bias: fc.boolean(), seed: fc.nat(),
  });
  fc.assert(fc.property(config, ({ seed, ...partial }) => {
    const c: DeconvConfig = { ...partial, mode: 'zeros' };
    fc.pre(c.oph < Math.max(c.sh, c.dh) && c.opw < Math.max(c.sw, c.dw));
    fc.pre((c.h - 1) * c.sh - 2 * c.ph + c.dh * (c.kh - 1) + c.oph + 1 >= 1 && (c.w - 1) * c.sw - 2 * c.pw + c.dw * (c.kw - 1) + c.opw + 1 >= 1);
    const weight = randomTensor([c.groups * c.icg, c.ocg, c.kh, c.kw], seed);
    const bias = c.bias ? randomTensor([c.groups * c.ocg], seed + 1) : undefined;
    const x = randomTensor([c.n, c.groups * c.icg, c.h, c.w], seed + 2);
    const want = zeroInsertionDeconv(c, x, weight, bias);
    assertClose(run1(deconvOp(c, weight, bias), x), want.shape, want.data, 1e-5, 1e-5);
  }), { numRuns: 200, seed: 7 });
});
