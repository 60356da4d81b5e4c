// Tensor.slice: x[start:end:step] along one dim (scalar form: dim, start, end, step), or several slices
// and integer selects fused by pnnx (vector form: dims, starts, ends, steps[, selects], all indexing the
// input's dims; a select of 2147483647 means "sliced, not selected"). Bounds follow aten::slice: negative
// values count from the end, then clamp to [0, size]; end=2147483647 means "to the end"; an end before the
// start gives an empty dim. A selected dim is dropped from the output.

import type { Node } from '../graph/graph.ts';
import { formatShape, normalizeAxis, stridesOf, type Shape } from '../tensor/shape.ts';
import { stridedIndex, gather } from './layout.ts';
import { noMacs, type OpDef } from './op.ts';
import { ParamReader } from './params.ts';

const NOT_SELECTED = 2147483647;

export interface SliceSpec {
  readonly dim: number;
  readonly start: number;
  readonly end: number;
  readonly step: number;
  /** An integer index: the dim is selected (and dropped), not sliced. */
  readonly select: number | undefined;
}

/** The node's slices, from the scalar form (dim/start/end/step) or pnnx's fused vector form. */
export function parseSlices(node: Node, p: ParamReader): SliceSpec[] {
  const dynamic = ['start', 'end', 'step', 'starts', 'ends', 'steps', 'selects'].filter((k) => node.inputKeys.has(k));
  if (dynamic.length || node.inputs.length > 1) {
    p.fail(`run-time slice bounds (${dynamic.map((k) => `$${k}`).join(', ') || 'extra inputs'}) are not supported: the bounds must be params`);
  }
  if (!p.has('dims')) {
    const spec = { dim: p.int('dim'), start: p.int('start', 0), end: p.int('end', NOT_SELECTED), step: p.int('step', 1), select: undefined };
    return [spec];
  }
  const dims = p.intList('dims');
  const pick = (key: string, fallback: number) => {
    const v = p.has(key) ? p.intList(key) : new Array<number>(dims.length).fill(fallback);
    if (v.length !== dims.length) p.fail(`param ${key}=(${v.join(',')}) has ${v.length} values for dims=(${dims.join(',')})`);
    return v;
  };
  const [starts, ends, steps, selects] = [pick('starts', 0), pick('ends', NOT_SELECTED), pick('steps', 1), pick('selects', NOT_SELECTED)];
  return dims.map((dim, i) => ({ dim, start: starts[i]!, end: ends[i]!, step: steps[i]!, select: selects[i] === NOT_SELECTED ? undefined : selects[i] }));
}

/** The output shape and, per input dim, (first index, step); selected dims have output size -1 (dropped). */
function plan(p: ParamReader, specs: readonly SliceSpec[], shape: Shape): { sizes: number[]; first: number[]; steps: number[] } {
  const sizes = [...shape];
  const first = new Array<number>(shape.length).fill(0);
  const steps = new Array<number>(shape.length).fill(1);
  const seen = new Set<number>();
  for (const s of specs) {
    const axis = normalizeAxis(s.dim, shape.length);
    if (axis === undefined || seen.has(axis)) p.fail(`dim=${s.dim} is out of range or repeated for input ${formatShape(shape)}`);
    seen.add(axis);
    const size = shape[axis]!;
    if (s.select !== undefined) {
      const index = s.select < 0 ? s.select + size : s.select;
      if (index < 0 || index >= size) p.fail(`select index ${s.select} is out of range for dim ${s.dim} of input ${formatShape(shape)}`);
      first[axis] = index;
      sizes[axis] = -1;
      continue;
    }
    if (s.step < 1) p.fail(`step=${s.step}: slices need a step >= 1 (PyTorch's rule)`);
    const clamp = (v: number) => Math.min(Math.max(v < 0 ? v + size : v, 0), size);
    const start = clamp(s.start);
    const end = Math.max(clamp(s.end), start);
    first[axis] = start;
    steps[axis] = s.step;
    sizes[axis] = Math.ceil((end - start) / s.step);
  }
  return { sizes, first, steps };
}

export const slice: OpDef = {
  types: ['Tensor.slice'],
  bind(node) {
    const p: ParamReader = new ParamReader(node);
    const specs = parseSlices(node, p);
    const outShape = (shape: Shape) => plan(p, specs, shape).sizes.filter((d) => d >= 0);
    return {
      infer(inputs) {
        p.expectInputs(inputs, 1);
        return [{ shape: outShape(inputs[0]!.shape), dtype: inputs[0]!.dtype }];
      },
      macs: noMacs,
      reference(inputs) {
        p.expectInputs(inputs, 1);
        const x = inputs[0]!;
        const { sizes, first, steps } = plan(p, specs, x.shape);
        const strides = stridesOf(x.shape);
        const base = first.reduce((a, f, k) => a + f * strides[k]!, 0);
        const kept = sizes.flatMap((d, k) => (d >= 0 ? [k] : []));
        const shape = kept.map((k) => sizes[k]!);
        return [gather(x, shape, stridedIndex(shape, base, kept.map((k) => steps[k]! * strides[k]!)))];
      },
    };
  },
};
