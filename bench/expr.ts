// pnnx.Expression: the fused kernel against the reference stack evaluator on 1M-element tensors.
// Throughput counts bytes read (every input once) plus bytes written (the output), per second.
// Run: node --import tsx bench/expr.ts
import { performance } from 'node:perf_hooks';
import { compileExpression, evaluateExpression } from '../src/expr/index.ts';
import { numel, type Shape } from '../src/tensor/shape.ts';
import { Tensor } from '../src/tensor/tensor.ts';

const FULL: Shape = [1, 64, 128, 128]; // 1,048,576 elements

const CASES: { name: string; expr: string; shapes: Shape[] }[] = [
  { name: 'add, same shapes', expr: 'add(@0,@1)', shapes: [FULL, FULL] },
  { name: 'mul, (1,C,1,1) broadcast', expr: 'mul(@0,@1)', shapes: [[1, 64, 1, 1], FULL] },
  { name: 'sqrt((2x+y)/12)', expr: 'sqrt(div(add(mul(@0,2),@1),12))', shapes: [FULL, FULL] },
  { name: '6-input chain', expr: 'add(add(mul(@0,@1),mul(@2,add(add(add(@0,@2),@3),@4))),@5)', shapes: new Array(6).fill(FULL) },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median wall time of `runs` calls after `warmup` unmeasured ones, in milliseconds. */
function time(fn: () => void, warmup: number, runs: number): number {
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function randomTensor(shape: Shape, seed: number): Tensor {
  const t = Tensor.zeros(shape);
  let s = seed;
  for (let i = 0; i < t.f32.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    t.f32[i] = s / 2 ** 32 + 0.5; // positive, so sqrt stays real
  }
  return t;
}

const gbps = (bytes: number, ms: number): string => (bytes / (ms * 1e6)).toFixed(2);
const rows: string[][] = [['case', 'elements', 'MB moved', 'fused ms', 'fused GB/s', 'evaluator ms', 'evaluator GB/s', 'speedup']];

// Memory ceiling for context: one read stream and one write stream.
{
  const src = randomTensor(FULL, 1).f32;
  const dst = new Float32Array(src.length);
  const ms = time(() => dst.set(src), 20, 31);
  rows.push(['copy (TypedArray.set)', String(src.length), (src.byteLength * 2 / 1e6).toFixed(1), ms.toFixed(3), gbps(src.byteLength * 2, ms), '', '', '']);
}

for (const { name, expr, shapes } of CASES) {
  const inputs = shapes.map((shape, i) => randomTensor(shape, i + 7));
  const compiled = compileExpression(expr, shapes);
  const out = new Float32Array(compiled.outputSize);
  const arrays = inputs.map((t) => t.f32);
  const bytes = 4 * (shapes.reduce((sum, s) => sum + numel(s), 0) + compiled.outputSize);
  const fused = time(() => compiled.kernel(arrays, out, 0, compiled.outputSize), 20, 31);
  const reference = time(() => evaluateExpression(expr, inputs), 1, 5);
  const check = evaluateExpression(expr, inputs).f32;
  for (let i = 0; i < out.length; i++) {
    if (!Object.is(out[i], check[i])) throw new Error(`${name}: kernel and evaluator differ at ${i}`);
  }
  rows.push([
    name, String(compiled.outputSize), (bytes / 1e6).toFixed(1), fused.toFixed(3), gbps(bytes, fused),
    reference.toFixed(1), gbps(bytes, reference), `${(reference / fused).toFixed(0)}x`,
  ]);
}

const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
console.log(`\nNode ${process.version}, median of 31 fused runs after 20 warm-up, 5 evaluator runs after 1; single thread.`);
