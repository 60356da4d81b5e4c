// The compiler: one expression + concrete input shapes -> one fused elementwise loop, as JavaScript
// source built once and run through `new Function`. Each input element is read once per output
// element that uses it (broadcast inputs once per row, 0-d inputs once per call), each output element
// is written once, and no intermediate tensor exists. Values known at compile time (literals, size())
// are folded to constants. The per-element code comes from the same templates as the evaluator's,
// so the kernel's results are bit-identical to the evaluator's.
//
// Kernel source layout (m = loop dims after coalescing, see loops.ts; N = innermost extent):
//   helpers ($erf, ...)                   only those the expression calls
//   entry:  loads of 0-d inputs and what depends only on them
//   begin -> inner index k, outer coordinates c0..c(m-2), row bases p<j> of each strided input
//   for each row:  row-level loads (inputs broadcast along the inner dim) and their dependants
//     for k in row:  inner loads x<j>[p<j> + k], the rest of the expression, out[i + k] = result
//     odometer: advance c and p to the next row

import { ExprError, failAt } from './error.ts';
import { operandLevel, planExpressionLoops, type LoopPlan } from './loops.ts';
import { toParsed, type ExpressionInput } from './parser.ts';
import { helperSource, helpersUsed } from './scalar.ts';
import { planCall, type Kind } from './semantics.ts';
import { analyseExpression, type ValueInfo } from './shape.ts';
import type { Expr } from './ast.ts';
import { UsageError } from '../errors.ts';
import { DYNAMIC, formatShape, numel, type Shape } from '../tensor/shape.ts';

export type KernelArray = Float32Array | Int32Array | Uint8Array;
/** A fused kernel: writes output elements [begin, end); does no checking. */
export type Kernel = (inputs: readonly KernelArray[], output: Float32Array, begin: number, end: number) => void;
export type KernelInputDType = 'f32' | 'i32' | 'bool';

/** Everything another thread needs to rebuild and call the kernel: plain data, structured-cloneable. */
export interface KernelDescriptor {
  /** Body of a factory: `new Function(source)()` returns the Kernel (see kernelFromSource). */
  readonly source: string;
  readonly inputShapes: readonly (readonly number[])[];
  readonly outputShape: readonly number[];
}

export interface CompiledExpression extends KernelDescriptor {
  readonly outputSize: number;
  /** The raw kernel (no checks), for callers that validated once. */
  readonly kernel: Kernel;
  /** Checks lengths and range, then computes output elements [begin, end). */
  run(inputs: readonly KernelArray[], output: Float32Array, begin?: number, end?: number): void;
}

export interface CompileOptions {
  /** Storage of each input: f32 (Float32Array, the default), i32 (Int32Array) or bool (Uint8Array). */
  readonly inputDTypes?: readonly KernelInputDType[];
}

export function kernelFromSource(source: string): Kernel {
  return new Function(source)() as Kernel;
}

export function compileExpression(expr: ExpressionInput, inputShapes: readonly Shape[], options: CompileOptions = {}): CompiledExpression {
  const parsed = toParsed(expr);
  for (const shape of inputShapes) {
    if (shape.includes(DYNAMIC)) throw new UsageError(`compileExpression needs concrete input shapes, got ${formatShape(shape)} for ${parsed.text}`);
  }
  const dtypes = inputShapes.map((_, j) => options.inputDTypes?.[j] ?? 'f32');
  const infos = analyseExpression(parsed, inputShapes.map((shape, j) => ({ shape, dtype: dtypes[j]! })));
  const result = infos[infos.length - 1]!;
  if (result.kind !== 'float' || result.isList) {
    failAt(parsed.text, parsed.root.span, parsed.file)('not a float tensor', `a${result.isList ? ' list' : 'n'} ${result.kind} result`,
      'a float tensor result (evaluate int, bool and list results with evaluateExpression)');
  }
  const outputShape = [...result.shape];
  const outputSize = numel(outputShape);
  // An operand seen only by size() contributes its shape, not its data, and may not broadcast at all.
  const loops = planExpressionLoops(parsed.postorder, outputShape, inputShapes);
  const source = generate(parsed.postorder, infos, loops, dtypes);
  const kernel = kernelFromSource(source);

  const run = (inputs: readonly KernelArray[], output: Float32Array, begin = 0, end = outputSize): void => {
    if (inputs.length < inputShapes.length) throw new UsageError(`${parsed.text}: expected ${inputShapes.length} inputs, got ${inputs.length}`);
    inputShapes.forEach((shape, j) => {
      if (inputs[j]!.length !== numel(shape)) {
        throw new UsageError(`${parsed.text}: input @${j} ${formatShape(shape)} needs ${numel(shape)} elements, got ${inputs[j]!.length}`);
      }
    });
    if (output.length !== outputSize) throw new UsageError(`${parsed.text}: output ${formatShape(outputShape)} needs ${outputSize} elements, got ${output.length}`);
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin || end > outputSize) {
      throw new UsageError(`${parsed.text}: range [${begin}, ${end}) is not within [0, ${outputSize}]`);
    }
    try {
      kernel(inputs, output, begin, end);
    } catch (error) {
      // The one error a kernel raises: integer division by zero (scalar.ts), as PyTorch raises it.
      if (!(error instanceof RangeError) || error.message !== 'integer division by zero') throw error;
      throw new ExprError(parsed.text, 0, parsed.text.length, 'integer division by zero', 'a zero divisor', 'non-zero divisors (PyTorch raises ZeroDivisionError)', parsed.file);
    }
  };
  return { source, inputShapes: inputShapes.map((s) => [...s]), outputShape, outputSize, kernel, run };
}

/** 0 = compile-time constant, then where the value is computed: once per call, per row, per element. */
type Level = 0 | 1 | 2 | 3;

interface Slot {
  readonly level: Level;
  readonly kind: Kind;
  /** A temporary, a constant literal, or (for operands) undefined until first used. */
  readonly name?: string;
  readonly operand?: number;
}

function generate(nodes: readonly Expr[], infos: readonly ValueInfo[], loops: LoopPlan, dtypes: readonly KernelInputDType[]): string {
  const m = loops.dims.length;
  const statements: [string[], string[], string[]] = [[], [], []];
  const levelOf = (j: number): Level => operandLevel(loops, j);
  const loaded = new Set<number>();
  const use = (slot: Slot): string => {
    if (slot.operand === undefined) return slot.name!;
    const j = slot.operand;
    if (!loaded.has(j)) {
      loaded.add(j);
      const at = slot.level === 1 ? '0' : slot.level === 2 ? `p${j}` : m === 1 ? 'k' : `p${j} + k`;
      const load = dtypes[j] === 'bool' ? `(x${j}[${at}] !== 0 ? 1 : 0)` : `x${j}[${at}]`;
      statements[slot.level - 1]!.push(`const v${j} = ${load};`);
    }
    return `v${j}`;
  };

  // A stack machine over the reverse-Polish listing that emits a statement per call instead of computing:
  // flat code, whatever the nesting depth.
  const stack: Slot[] = [];
  nodes.forEach((node, k) => {
    const info = infos[k]!;
    const arity = node.kind === 'call' ? node.args.length : node.kind === 'list' ? node.items.length : 0;
    const args = stack.splice(stack.length - arity, arity);
    const constant = info.value?.[0];
    if (!info.isList && info.shape.length === 0 && constant !== undefined) {
      stack.push({ level: 0, kind: info.kind, name: jsNumber(constant) });
    } else if (node.kind === 'operand') {
      stack.push({ level: levelOf(node.index), kind: info.kind, operand: node.index });
    } else if (node.kind === 'call') {
      const plan = planCall(node, args.map((a) => a.kind), () => { throw new Error('internal: call typed by analyse'); });
      const level = Math.max(1, ...args.map((a) => a.level)) as Level;
      statements[level - 1]!.push(`const t${k} = ${plan.template(...args.map(use))};`);
      stack.push({ level, kind: plan.kind, name: `t${k}` });
    } else {
      throw new Error(`internal: unexpected ${node.kind} node in a float tensor expression`);
    }
  });
  const result = use(stack.pop()!);

  const [entry, row, inner] = statements;
  const used = [...loaded].sort((a, b) => a - b);
  const lines: string[] = [];
  lines.push(...used.map((j) => `const x${j} = inputs[${j}];`));
  lines.push('if (!(begin < end)) return;', ...entry);
  if (m === 1) {
    lines.push('for (let k = begin; k < end; k++) {', ...indent(inner), `  out[k] = ${result};`, '}');
  } else {
    const n = loops.dims[m - 1]!;
    const strided = used.filter((j) => levelOf(j) > 1);
    lines.push(`let k = begin % ${n};`, `let r = (begin - k) / ${n};`);
    for (let d = m - 2; d >= 0; d--) lines.push(`let c${d} = r % ${loops.dims[d]};`, `r = (r - c${d}) / ${loops.dims[d]};`);
    for (const j of strided) {
      const terms = loops.strides[j]!.slice(0, m - 1).map((s, d) => (s === 0 ? '' : `c${d} * ${s}`)).filter(Boolean);
      lines.push(`let p${j} = ${terms.join(' + ') || '0'};`);
    }
    lines.push(
      `for (let i = begin - k; ; ) {`,
      `  const stop = end - i < ${n} ? end - i : ${n};`,
      ...indent(row),
      '  for (; k < stop; k++) {', ...indent(indent(inner)), `    out[i + k] = ${result};`, '  }',
      `  i += ${n};`,
      '  if (i >= end) return;',
      '  k = 0;',
      ...indent(odometer(m - 2, loops, strided)),
      '}',
    );
  }
  const body = `return function expressionKernel(inputs, out, begin, end) {\n${indent(lines).join('\n')}\n};\n`;
  return `"use strict";\n${helperSource(helpersUsed(body))}${body}`;
}

/** Steps coordinate c<d> and the row bases; on wrap-around resets it and carries into d-1. */
function odometer(d: number, loops: LoopPlan, strided: readonly number[]): string[] {
  const step = strided.filter((j) => loops.strides[j]![d] !== 0);
  const lines = [`c${d}++;`, ...step.map((j) => `p${j} += ${loops.strides[j]![d]};`)];
  if (d === 0) return lines;
  const extent = loops.dims[d]!;
  return [
    ...lines,
    `if (c${d} === ${extent}) {`,
    `  c${d} = 0;`,
    ...step.map((j) => `  p${j} -= ${extent * loops.strides[j]![d]!};`),
    ...indent(odometer(d - 1, loops, strided)),
    '}',
  ];
}

const indent = (lines: readonly string[]): string[] => lines.map((line) => `  ${line}`);

/** A number as a JavaScript literal that reads back exactly, parenthesised so it composes. */
function jsNumber(value: number): string {
  return `(${Object.is(value, -0) ? '-0' : String(value)})`;
}
