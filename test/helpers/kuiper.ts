// Reading the KuiperInfer reference cases (../shared/reference/kuiper/MANIFEST.json): inputs made by their
// rules, PyTorch's CSV outputs, and the comparison of one selected part of an output.

import { readFileSync } from 'node:fs';
import { numel, stridesOf } from '../../src/tensor/shape.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { kuiper } from './shared.ts';

export interface KuiperExpected {
  csv: string;
  shape: number[];
  order: 'rows_cols' | 'one_per_line';
  selects: Array<number | null>;
  select_text: string;
  valid_for_batch: number[];
}

export interface KuiperCase {
  id: string;
  param: string;
  bin: string;
  ops: string[];
  features: string;
  input: { shape: number[]; rule: { kind: 'fill'; value: number } | { kind: 'arange_per_sample' } | { kind: 'explicit'; values: number[] } };
  expected: KuiperExpected[];
  tolerance: { abs: number; suggested_abs?: number };
}

export function kuiperCases(): KuiperCase[] {
  return JSON.parse(readFileSync(kuiper('MANIFEST.json'), 'utf8')) as KuiperCase[];
}

export function makeInput(c: KuiperCase): Tensor {
  const shape = c.input.shape;
  const data = new Float32Array(numel(shape));
  const rule = c.input.rule;
  if (rule.kind === 'fill') data.fill(rule.value);
  else if (rule.kind === 'explicit') data.set(rule.values);
  else {
    const perSample = numel(shape.slice(1));
    for (let i = 0; i < data.length; i++) data[i] = i % perSample;
  }
  return Tensor.f32(shape, data);
}

export function readCsv(rel: string): Float64Array {
  const text = readFileSync(kuiper(rel), 'utf8');
  return Float64Array.from(text.split(/[\s,]+/).filter((s) => s.length > 0).map(Number));
}

/**
 * Compares output[sel] for each batch sample the case covers with the CSV values; returns the problems
 * (at most a few, each naming the N-d index, expected and got).
 */
export function compareSelection(out: Tensor, e: KuiperExpected, expected: Float64Array, tol: number): string[] {
  const problems: string[] = [];
  const batches = e.selects[0] === null ? e.valid_for_batch : [e.selects[0]!];
  const strides = stridesOf(out.shape);
  const data = out.f32;
  let worst = 0;
  for (const b of batches) {
    // Walk the selected sub-tensor in row-major order.
    const free = e.selects.map((s, d) => (d === 0 ? null : s === null ? out.shape[d]! : null));
    const dims = free.map((f) => f ?? 1);
    const count = numel(dims);
    if (count !== expected.length) return [`batch ${b}: selection has ${count} values, the CSV ${expected.length}`];
    const index = new Array<number>(out.shape.length).fill(0);
    for (let k = 0; k < count; k++) {
      let rest = k;
      for (let d = dims.length - 1; d >= 0; d--) {
        const fixed = d === 0 ? b : e.selects[d];
        index[d] = fixed === null || fixed === undefined ? rest % dims[d]! : fixed;
        rest = Math.floor(rest / dims[d]!);
      }
      const offset = index.reduce((s, i, d) => s + i * strides[d]!, 0);
      const got = data[offset]!;
      const want = expected[k]!;
      const err = Math.abs(got - want);
      worst = Math.max(worst, err);
      if (!(err <= tol) && problems.length < 5) problems.push(`output[${index.join(',')}]: expected ${want}, got ${got} (|diff| ${err.toExponential(2)} > ${tol})`);
    }
  }
  if (problems.length) problems.push(`worst |diff| ${worst.toExponential(2)} over ${e.select_text}`);
  return problems;
}
