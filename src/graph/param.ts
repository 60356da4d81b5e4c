// Operator parameters as PNNX types them (pnnx-spec.md §1.3): the kind is kept so that a float `2.0`
// prints back as a float and an int `2` as an int.

export interface Complex {
  readonly re: number;
  readonly im: number;
}

export type Param =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'ints'; readonly value: readonly number[] }
  | { readonly kind: 'floats'; readonly value: readonly number[] }
  | { readonly kind: 'strings'; readonly value: readonly string[] }
  | { readonly kind: 'complex'; readonly value: Complex }
  | { readonly kind: 'complexes'; readonly value: readonly Complex[] };

export const P = {
  null: (): Param => ({ kind: 'null' }),
  bool: (value: boolean): Param => ({ kind: 'bool', value }),
  int: (value: number): Param => ({ kind: 'int', value }),
  float: (value: number): Param => ({ kind: 'float', value }),
  string: (value: string): Param => ({ kind: 'string', value }),
  ints: (value: readonly number[]): Param => ({ kind: 'ints', value: [...value] }),
  floats: (value: readonly number[]): Param => ({ kind: 'floats', value: [...value] }),
  strings: (value: readonly string[]): Param => ({ kind: 'strings', value: [...value] }),
};

export function paramsEqual(a: Param, b: Param): boolean {
  if (a.kind !== b.kind) return false;
  const va = 'value' in a ? a.value : null;
  const vb = 'value' in b ? b.value : null;
  return JSON.stringify(va) === JSON.stringify(vb);
}
