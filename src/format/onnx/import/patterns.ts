// Activations that exporters spell out as elementwise ONNX nodes, found before translation and replaced by
// one node, so that they become the PNNX activation (one fast kernel, fusable into the convolution before
// it) instead of a chain of expressions:
//   HardSwish  x * Clip(x + 3, 0, 6) / 6        (Paddle2ONNX, opset < 14 PyTorch exports)
//              x * HardSigmoid(x, 1/6, 1/2)
//   SiLU       x * Sigmoid(x), x * Sigmoid(x * 1)   (`$SiLU`: ONNX has no such op before opset 24)
//   LayerNorm  (x - mean(x)) / sqrt(mean((x - mean(x))^2) + eps) [* gamma + beta] over the last axis
//              (`$LayerNorm`; LayerNormalization is opset 17)
// Every intermediate tensor must feed only the pattern (and not be a graph output).

import { onnx, type NodeProto, type TensorProto } from '../proto.ts';
import { tensorFromProto, tensorNumbers } from './tensor.ts';

const A = onnx.AttributeProto.AttributeType;

/** The op types of the synthetic nodes the converters know. */
export const SILU = '$SiLU';
export const LAYER_NORM = '$LayerNorm';

interface Graph {
  readonly nodes: readonly NodeProto[];
  readonly producer: ReadonlyMap<string, NodeProto>;
  readonly uses: ReadonlyMap<string, number>;
  readonly constants: ReadonlyMap<string, TensorProto>;
}

/** The single value of a constant tensor (an initializer or a Constant node's output), if it has one. */
function scalar(g: Graph, name: string | undefined): number | undefined {
  if (!name) return undefined;
  const t = g.constants.get(name);
  if (!t || (t.dims ?? []).some((d) => Number(d) !== 1)) return undefined;
  const values = tensorNumbers(tensorFromProto(t, name));
  return values.length === 1 ? values[0] : undefined;
}

const attribute = (n: NodeProto, name: string) => n.attribute?.find((a) => a.name === name);
const floatAttr = (n: NodeProto, name: string, fallback: number) => {
  const a = attribute(n, name);
  return a ? (a.type === A.INT ? Number(a.i) : a.f ?? 0) : fallback;
};

/** The node producing `name` if it is of `opType` and `name` feeds nothing but the pattern. */
function inner(g: Graph, name: string | undefined, opType: string): NodeProto | undefined {
  const n = name ? g.producer.get(name) : undefined;
  return n && n.opType === opType && (!n.domain || n.domain === 'ai.onnx') && g.uses.get(name!) === 1 ? n : undefined;
}

/** For a binary node, [the input that is not `constant`-valued, the other], trying both orders. */
function split(g: Graph, n: NodeProto, value: number): string | undefined {
  const [a, b] = n.input ?? [];
  if (scalar(g, b) === value) return a;
  if (scalar(g, a) === value) return b;
  return undefined;
}

function clipBounds(g: Graph, n: NodeProto, opset: number): [number | undefined, number | undefined] {
  if (opset < 11) return [floatAttr(n, 'min', -Infinity), floatAttr(n, 'max', Infinity)];
  return [scalar(g, n.input?.[1]), scalar(g, n.input?.[2])];
}

/** Matches x * relu6(x + 3) / 6 at the Div; returns x and the nodes it replaces. */
function hardSwishFromDiv(g: Graph, div: NodeProto, opset: number): { x: string; nodes: NodeProto[] } | undefined {
  if (scalar(g, div.input?.[1]) !== 6) return undefined;
  const mul = inner(g, div.input?.[0], 'Mul');
  if (!mul) return undefined;
  for (const [x, c] of [[mul.input?.[0], mul.input?.[1]], [mul.input?.[1], mul.input?.[0]]] as const) {
    const clip = inner(g, c, 'Clip');
    if (!clip || !x) continue;
    const [lo, hi] = clipBounds(g, clip, opset);
    if (lo !== 0 || hi !== 6) continue;
    const add = inner(g, clip.input?.[0], 'Add');
    if (add && split(g, add, 3) === x) return { x, nodes: [add, clip, mul, div] };
  }
  return undefined;
}

/** Matches x * HardSigmoid(x; 1/6, 1/2) or x * Sigmoid(x) / x * Sigmoid(x * 1) at the Mul. */
function fromMul(g: Graph, mul: NodeProto): { opType: string; x: string; nodes: NodeProto[] } | undefined {
  for (const [x, s] of [[mul.input?.[0], mul.input?.[1]], [mul.input?.[1], mul.input?.[0]]] as const) {
    if (!x) continue;
    const hs = inner(g, s, 'HardSigmoid');
    if (hs && hs.input?.[0] === x && Math.abs(floatAttr(hs, 'alpha', 0.2) - 1 / 6) < 1e-6 && floatAttr(hs, 'beta', 0.5) === 0.5) {
      return { opType: 'HardSwish', x, nodes: [hs, mul] };
    }
    const sig = inner(g, s, 'Sigmoid');
    if (!sig) continue;
    if (sig.input?.[0] === x) return { opType: SILU, x, nodes: [sig, mul] };
    const one = inner(g, sig.input?.[0], 'Mul');
    if (one && split(g, one, 1) === x) return { opType: SILU, x, nodes: [one, sig, mul] };
  }
  return undefined;
}

/** ReduceMean over the last axis only, keeping it (attribute axes before opset 18, input after). */
function meanOverLast(g: Graph, n: NodeProto | undefined, opset: number): boolean {
  if (!n) return false;
  const keep = attribute(n, 'keepdims');
  if (keep && Number(keep.i) !== 1) return false;
  const axes = opset < 18 ? attribute(n, 'axes')?.ints?.map(Number) : (() => { const v = scalar(g, n.input?.[1]); return v === undefined ? undefined : [v]; })();
  return axes?.length === 1 && axes[0] === -1;
}

/** The constant named `name` as a vector, if it is one (an initializer or a Constant output). */
const isVector = (g: Graph, name: string | undefined) => !!name && (g.constants.get(name)?.dims?.length ?? 0) === 1;

/** Matches a decomposed layer norm at its Div; returns the nodes, x, eps and the affine tensors. */
function layerNormFromDiv(g: Graph, div: NodeProto, opset: number): { x: string; eps: number; nodes: NodeProto[]; gamma?: string; beta?: string } | undefined {
  const [d, sName] = div.input ?? [];
  const sqrt = inner(g, sName, 'Sqrt');
  const add = sqrt && inner(g, sqrt.input?.[0], 'Add');
  const vName = add && (scalar(g, add.input?.[1]) !== undefined ? add.input?.[0] : add.input?.[1]);
  const eps = add && scalar(g, add.input?.[0] === vName ? add.input?.[1] : add.input?.[0]);
  const variance = inner(g, vName, 'ReduceMean');
  const pow = variance && inner(g, variance.input?.[0], 'Pow');
  const sub = d ? g.producer.get(d) : undefined;
  if (!sqrt || !add || eps === undefined || !pow || !sub || sub.opType !== 'Sub' || g.uses.get(d!) !== 2) return undefined;
  if (pow.input?.[0] !== d || scalar(g, pow.input?.[1]) !== 2 || !meanOverLast(g, variance, opset)) return undefined;
  const [x, mName] = sub.input ?? [];
  const mean = inner(g, mName, 'ReduceMean');
  if (!x || !mean || mean.input?.[0] !== x || !meanOverLast(g, mean, opset)) return undefined;
  const nodes = [mean, sub, pow, variance!, add, sqrt, div];
  return { x, eps, nodes };
}

/** Extends a layer norm match by `* gamma + beta` when both follow. */
function withAffine(g: Graph, m: NonNullable<ReturnType<typeof layerNormFromDiv>>): typeof m {
  const out = m.nodes[m.nodes.length - 1]!.output![0]!;
  const mulUse = [...g.nodes].find((n) => n.opType === 'Mul' && n.input?.includes(out));
  if (!mulUse || g.uses.get(out) !== 1) return m;
  const gamma = mulUse.input![0] === out ? mulUse.input![1] : mulUse.input![0];
  const addUse = [...g.nodes].find((n) => n.opType === 'Add' && n.input?.includes(mulUse.output![0]!));
  if (!isVector(g, gamma) || !addUse || g.uses.get(mulUse.output![0]!) !== 1) return m;
  const beta = addUse.input![0] === mulUse.output![0] ? addUse.input![1] : addUse.input![0];
  if (!isVector(g, beta)) return m;
  return { ...m, gamma, beta, nodes: [...m.nodes, mulUse, addUse] };
}

/** The node list with every pattern above replaced by one node (named after the pattern's last node). */
export function fusePatterns(nodes: readonly NodeProto[], initializers: readonly TensorProto[], graphOutputs: readonly string[], opset: number): NodeProto[] {
  const producer = new Map<string, NodeProto>();
  const uses = new Map<string, number>();
  const constants = new Map<string, TensorProto>(initializers.map((t) => [t.name!, t]));
  for (const n of nodes) {
    for (const o of n.output ?? []) producer.set(o, n);
    for (const i of n.input ?? []) uses.set(i, (uses.get(i) ?? 0) + 1);
    const value = n.opType === 'Constant' ? attribute(n, 'value')?.t : undefined;
    if (value) constants.set(n.output![0]!, value);
  }
  // A graph output is used outside the pattern.
  for (const o of graphOutputs) uses.set(o, (uses.get(o) ?? 0) + 1);
  const g: Graph = { nodes, producer, uses, constants };
  const replaced = new Map<NodeProto, NodeProto | null>();
  for (const n of nodes) {
    if (replaced.has(n)) continue;
    let match: { opType: string; inputs: string[]; nodes: NodeProto[]; eps?: number } | undefined;
    if (n.opType === 'Div') {
      const hs = hardSwishFromDiv(g, n, opset);
      const ln = hs ? undefined : layerNormFromDiv(g, n, opset);
      if (hs) match = { opType: 'HardSwish', inputs: [hs.x], nodes: hs.nodes };
      else if (ln) {
        const full = withAffine(g, ln);
        match = { opType: LAYER_NORM, inputs: [full.x, ...(full.gamma ? [full.gamma, full.beta!] : [])], nodes: full.nodes, eps: full.eps };
      }
    } else if (n.opType === 'Mul') {
      const m = fromMul(g, n);
      if (m) match = { opType: m.opType, inputs: [m.x], nodes: m.nodes };
    }
    if (!match || match.nodes.some((m) => replaced.has(m))) continue;
    // The fused node sits where the pattern's last node was: every input is produced before it.
    const last = match.nodes.reduce((a, b) => (nodes.indexOf(b) > nodes.indexOf(a) ? b : a));
    const output = match.nodes[match.nodes.length - 1]!.output![0]!;
    for (const m of match.nodes) replaced.set(m, null);
    const attribute = match.eps === undefined ? [] : [{ name: 'epsilon', type: A.FLOAT, f: match.eps }];
    replaced.set(last, onnx.NodeProto.create({ name: last.name || `${match.opType}_${nodes.indexOf(last)}`, opType: match.opType, input: match.inputs, output: [output], attribute }));
  }
  return nodes.flatMap((n) => {
    if (!replaced.has(n)) return [n];
    const r = replaced.get(n);
    return r ? [r] : [];
  });
}
