// Shapes: row-major (C order), as PyTorch lays tensors out.

export type Shape = readonly number[];

/** A dimension PNNX writes as `?`: unknown until an input size binds it. */
export const DYNAMIC = -1;

export function numel(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Row-major strides in elements: strides(2,3,4) = (12,4,1). */
export function stridesOf(shape: Shape): number[] {
  const strides = new Array<number>(shape.length);
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i]!;
  }
  return strides;
}

export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

export function formatShape(shape: Shape): string {
  return `(${shape.map((d) => (d === DYNAMIC ? '?' : String(d))).join(',')})`;
}

/** A possibly negative axis (-1 = last) resolved against `rank`; undefined when out of range. */
export function normalizeAxis(axis: number, rank: number): number | undefined {
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank ? a : undefined;
}

/**
 * NumPy/PyTorch broadcasting: align from the right, each pair equal or one of them 1.
 * Returns undefined when the shapes do not broadcast.
 */
export function broadcastShapes(shapes: readonly Shape[]): number[] | undefined {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const o = rank - s.length + i;
      const d = s[i]!;
      if (d === out[o] || d === 1) continue;
      if (out[o] === 1) out[o] = d;
      else return undefined;
    }
  }
  return out;
}
