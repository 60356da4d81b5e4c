// A node's attributes, read with the ONNX defaults the converter gives. Every attribute a converter reads is
// marked; one that no converter read is an attribute the importer does not know for that op, and fails the
// node (an unknown attribute may change the result, so it is never ignored silently).

import type { AttributeProto } from '../proto.ts';
import { onnx } from '../proto.ts';
import type { Tensor } from '../../../tensor/tensor.ts';
import { Unsupported } from './errors.ts';
import { tensorFromProto, toNumber } from './tensor.ts';

const A = onnx.AttributeProto.AttributeType;

/** The attribute's type, guessed from its filled field when an old writer left `type` unset. */
function typeOf(a: AttributeProto): number {
  if (a.type) return a.type;
  if (a.ints?.length) return A.INTS;
  if (a.floats?.length) return A.FLOATS;
  if (a.strings?.length) return A.STRINGS;
  if (a.t) return A.TENSOR;
  if (a.s?.length) return A.STRING;
  if (a.f) return A.FLOAT;
  return A.INT;
}

export class Attrs {
  private readonly byName = new Map<string, AttributeProto>();
  private readonly read = new Set<string>();

  constructor(attributes: readonly AttributeProto[], private readonly where: string) {
    for (const a of attributes) this.byName.set(a.name ?? '', a);
  }

  has(name: string): boolean {
    this.read.add(name);
    return this.byName.has(name);
  }

  private get(name: string, types: readonly number[], what: string): AttributeProto | undefined {
    this.read.add(name);
    const a = this.byName.get(name);
    if (!a) return undefined;
    if (!types.includes(typeOf(a))) throw new Unsupported(`attribute ${name} has type ${typeOf(a)}: expected ${what}`);
    return a;
  }

  int(name: string, fallback: number): number;
  int(name: string): number | undefined;
  int(name: string, fallback?: number): number | undefined {
    const a = this.get(name, [A.INT], 'an integer');
    return a ? toNumber(a.i) : fallback;
  }

  float(name: string, fallback: number): number;
  float(name: string): number | undefined;
  float(name: string, fallback?: number): number | undefined {
    const a = this.get(name, [A.FLOAT, A.INT], 'a float');
    if (!a) return fallback;
    return typeOf(a) === A.INT ? toNumber(a.i) : a.f ?? 0;
  }

  string(name: string, fallback: string): string;
  string(name: string): string | undefined;
  string(name: string, fallback?: string): string | undefined {
    const a = this.get(name, [A.STRING], 'a string');
    return a ? new TextDecoder().decode(a.s ?? new Uint8Array()) : fallback;
  }

  ints(name: string, fallback: readonly number[]): number[];
  ints(name: string): number[] | undefined;
  ints(name: string, fallback?: readonly number[]): number[] | undefined {
    const a = this.get(name, [A.INTS, A.INT], 'a list of integers');
    if (!a) return fallback ? [...fallback] : undefined;
    return typeOf(a) === A.INT ? [toNumber(a.i)] : (a.ints ?? []).map(toNumber);
  }

  floats(name: string): number[] | undefined {
    const a = this.get(name, [A.FLOATS, A.FLOAT], 'a list of floats');
    if (!a) return undefined;
    return typeOf(a) === A.FLOAT ? [a.f ?? 0] : [...(a.floats ?? [])];
  }

  tensor(name: string): Tensor | undefined {
    const a = this.get(name, [A.TENSOR], 'a tensor');
    return a?.t ? tensorFromProto(a.t, `${this.where}: attribute ${name}`) : undefined;
  }

  /** Attributes present on the node that no converter read (call after the conversion). */
  unread(): string[] {
    return [...this.byName.keys()].filter((k) => !this.read.has(k));
  }

  /** Marks attributes that do not change an inference result (e.g. BatchNormalization's momentum). */
  ignore(...names: string[]): void {
    for (const n of names) this.read.add(n);
  }
}
