// The expression compiler's second back end: one expression + concrete f32 input shapes -> a SIMD
// WebAssembly module (as text) on the engine's shared memory. Same analysis and loop nest as compile.ts
// (analyseExpression, planLoops); values live at the same levels (once per call, per row, per element),
// and the per-element code runs as f32x4 over 4 output elements at a time with a scalar tail per row.
// Only ops whose wasm instruction rounds exactly as the JavaScript kernel (a float32 result per op) are
// covered, so results match it bit for bit (NaN payloads aside): f32 add/sub/mul/div/sqrt are correctly
// rounded, min/max propagate NaN and order -0 < +0 as Math.min/max do (pmin/pmax would not). Anything
// else returns undefined and stays on the JavaScript loop.
//
// Export: run(out, x0, ..., x(n-1), begin, end): byte addresses of the output and of every input (unused
// ones included), and the output elements [begin, end) to write.

import { operandLevel, planExpressionLoops } from './loops.ts';
import { toParsed, type ExpressionInput } from './parser.ts';
import { analyseExpression } from './shape.ts';
import type { Expr } from './ast.ts';
import { numel, type Shape } from '../tensor/shape.ts';
import { MAX_PAGES } from '../kernels/abi.ts';

export interface WasmExpression {
  /** The module in WebAssembly text; encode with kernels/wat.ts watToWasm. */
  readonly wat: string;
  readonly outputShape: readonly number[];
  readonly outputSize: number;
}

/** f32 instruction per supported call; the f32x4 one is the same name with the f32x4 prefix. */
const BINARY: Readonly<Record<string, string>> = { add: 'add', sub: 'sub', mul: 'mul', div: 'div', max: 'max', maximum: 'max', min: 'min', minimum: 'min' };
const UNARY: Readonly<Record<string, string>> = { neg: 'neg', abs: 'abs', sqrt: 'sqrt', ceil: 'ceil', floor: 'floor', trunc: 'trunc' };

/** 0 = constant, 1 = once per call, 2 = once per row, 3 = per element. */
type Level = 0 | 1 | 2 | 3;

interface Slot {
  readonly level: Level;
  /** Constant: float32 bits. */
  readonly bits?: number;
  /** Levels 1-2: f32 local; level 3: f32 local of the scalar tail. */
  readonly scalar?: string;
  /** Level 3: v128 local of the vector body. */
  readonly vector?: string;
  readonly operand?: number;
}

const f32Bits = (value: number): number => new Int32Array(new Float32Array([value]).buffer)[0]!;

/** The module text, or undefined when the expression uses anything this back end does not cover. */
export function compileExpressionWasm(expr: ExpressionInput, inputShapes: readonly Shape[]): WasmExpression | undefined {
  const parsed = toParsed(expr);
  const infos = analyseExpression(parsed, inputShapes.map((shape) => ({ shape, dtype: 'f32' as const })));
  const root = infos[infos.length - 1]!;
  if (root.kind !== 'float' || root.isList) return undefined;
  const outputShape = [...root.shape];
  const outputSize = numel(outputShape);
  if (outputSize === 0) return undefined;
  const loops = planExpressionLoops(parsed.postorder, outputShape, inputShapes);
  const body = generate(parsed.postorder, infos.map((i) => ({ constant: !i.isList && i.shape.length === 0 ? i.value?.[0] : undefined, kind: i.kind })), loops.dims, loops.strides);
  if (body === undefined) return undefined;
  const params = ['(param $out i32)', ...inputShapes.map((_, j) => `(param $x${j} i32)`), '(param $begin i32) (param $end i32)'];
  const wat = [
    '(module',
    `  (import "env" "memory" (memory 1 ${MAX_PAGES} shared))`,
    `  (func (export "run") ${params.join(' ')}`,
    ...body.map((line) => `    ${line}`),
    '  ))',
  ].join('\n');
  return { wat, outputShape, outputSize };
}

interface NodeInfo {
  readonly constant: number | undefined;
  readonly kind: string;
}

function generate(nodes: readonly Expr[], infos: readonly NodeInfo[], dims: readonly number[], strides: readonly (readonly number[])[]): string[] | undefined {
  const m = dims.length;
  const n = dims[m - 1]!;
  const locals: string[] = [];
  const local = (name: string, type: 'f32' | 'v128' | 'i32'): string => {
    locals.push(`(local $${name} ${type})`);
    return `$${name}`;
  };
  // Code per level: entry (once per call), row (once per row), the f32x4 body and the scalar tail.
  const entry: string[] = [];
  const row: string[] = [];
  const vec: string[] = [];
  const tail: string[] = [];
  const levelOf = (j: number): Level => operandLevel({ dims, strides }, j);
  const strided = new Set<number>();

  const operandSlots = new Map<number, Slot>();
  const load = (j: number): Slot => {
    let slot = operandSlots.get(j);
    if (slot !== undefined) return slot;
    const level = levelOf(j);
    if (level === 1) {
      slot = { level, scalar: local(`o${j}`, 'f32') };
      entry.push(`(local.set ${slot.scalar} (f32.load (local.get $x${j})))`);
    } else {
      strided.add(j);
      if (level === 2) {
        slot = { level, scalar: local(`o${j}`, 'f32') };
        row.push(`(local.set ${slot.scalar} (f32.load (local.get $a${j})))`);
      } else {
        slot = { level, scalar: local(`o${j}`, 'f32'), vector: local(`ov${j}`, 'v128') };
        vec.push(`(local.set ${slot.vector} (v128.load align=4 (i32.add (local.get $a${j}) (local.get $kb))))`);
        tail.push(`(local.set ${slot.scalar} (f32.load (i32.add (local.get $a${j}) (local.get $kb))))`);
      }
    }
    operandSlots.set(j, slot);
    return slot;
  };
  const splats = new Map<Slot, string>();
  const scalarOf = (slot: Slot): string => (slot.level === 0 ? `(f32.reinterpret_i32 (i32.const ${slot.bits}))` : `(local.get ${slot.scalar})`);
  const vectorOf = (slot: Slot): string => {
    if (slot.level === 0) return `(v128.const i32x4 ${slot.bits} ${slot.bits} ${slot.bits} ${slot.bits})`;
    if (slot.level === 3) return `(local.get ${slot.vector})`;
    let name = splats.get(slot);
    if (name === undefined) {
      name = local(`w${splats.size}`, 'v128');
      splats.set(slot, name);
      (slot.level === 1 ? entry : row).push(`(local.set ${name} (f32x4.splat (local.get ${slot.scalar})))`);
    }
    return `(local.get ${name})`;
  };
  const one: Slot = { level: 0, bits: f32Bits(1) };
  // Unaries the JavaScript templates compute as one rounded binary op: square = x * x, reciprocal = 1 / x.
  const derived: Readonly<Record<string, (x: Slot) => [string, Slot[]]>> = {
    square: (x) => ['mul', [x, x]],
    reciprocal: (x) => ['div', [one, x]],
  };

  // The stack machine of compile.ts over the reverse-Polish listing, emitting one local per call.
  const stack: (Slot | { readonly pending: number })[] = [];
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k]!;
    const info = infos[k]!;
    const arity = node.kind === 'call' ? node.args.length : node.kind === 'list' ? node.items.length : 0;
    const popped = stack.splice(stack.length - arity, arity);
    if (info.constant !== undefined) {
      stack.push({ level: 0, bits: f32Bits(info.constant) });
      continue;
    }
    if (node.kind === 'operand') {
      // Loaded at first use (an operand seen only by a folded size() is never read).
      stack.push({ pending: node.index });
      continue;
    }
    if (node.kind !== 'call' || info.kind !== 'float') return undefined;
    const args = popped.map((a) => ('pending' in a ? load(a.pending) : a));
    let op: string;
    let operands: Slot[];
    if (BINARY[node.fn] !== undefined && args.length === 2) [op, operands] = [BINARY[node.fn]!, args];
    else if (UNARY[node.fn] !== undefined && args.length === 1) [op, operands] = [UNARY[node.fn]!, args];
    else if (derived[node.fn] !== undefined && args.length === 1) [op, operands] = derived[node.fn]!(args[0]!);
    else return undefined;
    const level = Math.max(1, ...operands.map((a) => a.level)) as Level;
    if (level < 3) {
      const scalar = local(`t${k}`, 'f32');
      (level === 1 ? entry : row).push(`(local.set ${scalar} (f32.${op} ${operands.map(scalarOf).join(' ')}))`);
      stack.push({ level, scalar });
    } else {
      const slot: Slot = { level, scalar: local(`t${k}`, 'f32'), vector: local(`v${k}`, 'v128') };
      vec.push(`(local.set ${slot.vector} (f32x4.${op} ${operands.map(vectorOf).join(' ')}))`);
      tail.push(`(local.set ${slot.scalar} (f32.${op} ${operands.map(scalarOf).join(' ')}))`);
      stack.push(slot);
    }
  }
  const top = stack.pop()!;
  const result = 'pending' in top ? load(top.pending) : top;
  const vecResult = vectorOf(result);

  // Row setup: the row index r = i / n gives the outer coordinates; each strided operand's row address.
  const rowSetup: string[] = [];
  if (strided.size > 0) {
    rowSetup.push('(local.set $r (i32.div_u (local.get $i) (i32.const ' + n + ')))');
    for (const j of strided) rowSetup.push(`(local.set $a${j} (local.get $x${j}))`);
    for (let d = m - 2; d >= 0; d--) {
      rowSetup.push(d === 0 ? '(local.set $c (local.get $r))' : `(local.set $c (i32.rem_u (local.get $r) (i32.const ${dims[d]})))`);
      if (d > 0) rowSetup.push(`(local.set $r (i32.div_u (local.get $r) (i32.const ${dims[d]})))`);
      for (const j of strided) {
        const s = strides[j]![d]!;
        if (s !== 0) rowSetup.push(`(local.set $a${j} (i32.add (local.get $a${j}) (i32.mul (local.get $c) (i32.const ${s * 4}))))`);
      }
    }
  }
  const indexLocals = ['(local $i i32) (local $k i32) (local $kb i32) (local $stop i32) (local $o i32) (local $r i32) (local $c i32)',
    ...[...strided].map((j) => `(local $a${j} i32)`)];
  return [
    ...indexLocals, ...locals,
    '(if (i32.ge_u (local.get $begin) (local.get $end)) (then (return)))',
    ...entry,
    `(local.set $k (i32.rem_u (local.get $begin) (i32.const ${n})))`,
    '(local.set $i (i32.sub (local.get $begin) (local.get $k)))',
    '(loop $rows',
    `  (local.set $stop (select (i32.const ${n}) (i32.sub (local.get $end) (local.get $i)) (i32.gt_u (i32.sub (local.get $end) (local.get $i)) (i32.const ${n}))))`,
    '  (local.set $o (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))))',
    ...indent(rowSetup), ...indent(row),
    '  (block $vdone (loop $vec',
    '    (br_if $vdone (i32.gt_u (i32.add (local.get $k) (i32.const 4)) (local.get $stop)))',
    '    (local.set $kb (i32.shl (local.get $k) (i32.const 2)))',
    ...indent(indent(vec)),
    `    (v128.store align=4 (i32.add (local.get $o) (local.get $kb)) ${vecResult})`,
    '    (local.set $k (i32.add (local.get $k) (i32.const 4)))',
    '    (br $vec)))',
    '  (block $sdone (loop $scalar',
    '    (br_if $sdone (i32.ge_u (local.get $k) (local.get $stop)))',
    '    (local.set $kb (i32.shl (local.get $k) (i32.const 2)))',
    ...indent(indent(tail)),
    `    (f32.store (i32.add (local.get $o) (local.get $kb)) ${scalarOf(result)})`,
    '    (local.set $k (i32.add (local.get $k) (i32.const 1)))',
    '    (br $scalar)))',
    `  (local.set $i (i32.add (local.get $i) (i32.const ${n})))`,
    '  (local.set $k (i32.const 0))',
    '  (br_if $rows (i32.lt_u (local.get $i) (local.get $end))))',
  ];
}

const indent = (lines: readonly string[]): string[] => lines.map((line) => `  ${line}`);
