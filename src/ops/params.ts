// Reading a node's params and weights once, at load, with PyTorch's defaults. Every problem names the
// node, the param and its value: `nn.Conv2d node "conv1" (line 4 of m.pnnx.param): param stride=(1,a): ...`.

import { NodeError } from '../errors.ts';
import type { Node, Weight } from '../graph/graph.ts';
import type { Param } from '../graph/param.ts';
import { formatParamValue } from '../format/pnnx/param-value.ts';
import { toFloat32 } from '../tensor/dtype.ts';
import { formatShape, numel, type Shape } from '../tensor/shape.ts';
import type { ShapeInfo } from './op.ts';

export class ParamReader {
  constructor(readonly node: Node) {}

  fail(problem: string): never {
    throw new NodeError(this.node, problem);
  }

  has(key: string): boolean {
    const p = this.node.params.get(key);
    return p !== undefined && p.kind !== 'null';
  }

  private get(key: string, fallback: unknown, what: string): Param | undefined {
    const p = this.node.params.get(key);
    if (p === undefined || p.kind === 'null') {
      if (fallback === undefined) this.fail(`param ${key} is missing: expected ${what}`);
      return undefined;
    }
    return p;
  }

  private bad(key: string, p: Param, what: string): never {
    return this.fail(`param ${key}=${formatParamValue(p)}: expected ${what}`);
  }

  int(key: string, fallback?: number): number {
    const p = this.get(key, fallback, 'an integer');
    if (!p) return fallback!;
    if (p.kind === 'int') return p.value;
    if (p.kind === 'ints' && p.value.length === 1) return p.value[0]!;
    return this.bad(key, p, 'an integer');
  }

  float(key: string, fallback?: number): number {
    const p = this.get(key, fallback, 'a number');
    if (!p) return fallback!;
    if (p.kind === 'float' || p.kind === 'int') return p.value;
    return this.bad(key, p, 'a number');
  }

  /** True/False; old files write 1/0. */
  bool(key: string, fallback?: boolean): boolean {
    const p = this.get(key, fallback, 'True or False');
    if (!p) return fallback!;
    if (p.kind === 'bool') return p.value;
    if (p.kind === 'int' && (p.value === 0 || p.value === 1)) return p.value === 1;
    return this.bad(key, p, 'True or False');
  }

  string<T extends string>(key: string, allowed: readonly T[], fallback?: T): T {
    const p = this.get(key, fallback, `one of ${allowed.join(', ')}`);
    if (!p) return fallback!;
    if (p.kind === 'string' && (allowed as readonly string[]).includes(p.value)) return p.value as T;
    return this.bad(key, p, `one of ${allowed.join(', ')}`);
  }

  /** `n` integers: a tuple of n, or one int (or a 1-tuple) repeated, as PyTorch's `_pair` does. */
  ints(key: string, n: number, fallback?: readonly number[]): number[] {
    const p = this.get(key, fallback, `${n} integers`);
    if (!p) return [...fallback!];
    if (p.kind === 'int') return new Array<number>(n).fill(p.value);
    if (p.kind === 'ints' && (p.value.length === n || p.value.length === 1)) {
      return p.value.length === n ? [...p.value] : new Array<number>(n).fill(p.value[0]!);
    }
    return this.bad(key, p, `${n} integers, e.g. (${new Array(n).fill(1).join(',')})`);
  }

  /** Any number of integers (a single int counts as one). */
  intList(key: string, fallback?: readonly number[]): number[] {
    const p = this.get(key, fallback, 'a tuple of integers');
    if (!p) return [...fallback!];
    if (p.kind === 'int') return [p.value];
    if (p.kind === 'ints') return [...p.value];
    return this.bad(key, p, 'a tuple of integers');
  }

  /** `n` numbers (ints are promoted), or one repeated. */
  floats(key: string, n: number, fallback?: readonly number[]): number[] {
    const p = this.get(key, fallback, `${n} numbers`);
    if (!p) return [...fallback!];
    if (p.kind === 'float' || p.kind === 'int') return new Array<number>(n).fill(p.value);
    if ((p.kind === 'floats' || p.kind === 'ints') && (p.value.length === n || p.value.length === 1)) {
      return p.value.length === n ? [...p.value] : new Array<number>(n).fill(p.value[0]!);
    }
    return this.bad(key, p, `${n} numbers`);
  }

  /** The raw param, for ops whose params take several forms. */
  raw(key: string): Param | undefined {
    return this.node.params.get(key);
  }

  /** A declared weight with data loaded; `shape` (if given) must match the declaration. */
  weight(key: string, shape?: Shape): Weight & { data: NonNullable<Weight['data']> } {
    const w = this.node.weights.get(key);
    if (!w) return this.fail(`weight @${key} is missing${shape ? `: expected shape ${formatShape(shape)}` : ''}`);
    if (shape && (w.shape.length !== shape.length || w.shape.some((d, i) => d !== shape[i]))) {
      this.fail(`weight @${key}=${formatShape(w.shape)}: expected shape ${formatShape(shape)} = ${numel(shape)} values from the params`);
    }
    if (!w.data) return this.fail(`weight @${key}${formatShape(w.shape)} has no data: load the model with its .pnnx.bin`);
    return { dtype: w.dtype, shape: w.shape, data: w.data };
  }

  /** Declared weight shape, without needing data (shape inference works without the .bin). */
  weightShape(key: string): Shape | undefined {
    return this.node.weights.get(key)?.shape;
  }

  /** A weight's data widened to float32. */
  weightF32(key: string, shape?: Shape): Float32Array {
    const w = this.weight(key, shape);
    return toFloat32(w.dtype!, w.data);
  }

  /** Checks that there are `count` inputs (or a range) at infer time. */
  expectInputs(inputs: readonly ShapeInfo[], min: number, max = min): void {
    if (inputs.length < min || inputs.length > max) {
      this.fail(`expected ${min === max ? min : `${min} to ${max}`} input${max === 1 ? '' : 's'}, got ${inputs.length}`);
    }
  }

  /** Checks an input's rank at infer time. */
  expectRank(input: ShapeInfo, ranks: readonly number[], what = 'input'): void {
    if (!ranks.includes(input.shape.length)) {
      this.fail(`${what} has shape ${formatShape(input.shape)}: expected rank ${ranks.join(' or ')}`);
    }
  }
}
