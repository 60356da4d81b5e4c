// importOnnx: an ONNX model (opsets 6 to 21) as a flowinfer graph of PNNX ops, so that passes, both engines
// and streaming apply unchanged.
//
//   1. decode the ModelProto (onnx-proto) and read the default-domain opset
//   2. the graph's real inputs are its inputs that are not initializers (IR 3 lists both); each becomes a
//      pnnx.Input. Dynamic dims are bound to the caller's `inputShape`, else to batch 1 and DEFAULT_SIZE
//   3. with dynamic dims, the model is first translated at other sizes (each dynamic dim times a distinct
//      prime): the probe. Values that differ between the two translations depend on the input size;
//      converters use that to write shape-agnostic ops (a reshape's -1 or 0, a slice to the end, a scale)
//   4. activations spelled out as elementwise nodes (x * relu6(x + 3) / 6, x * sigmoid(x)) become one node
//      (patterns.ts); then translate node by node (ONNX orders nodes topologically): initializers and
//      Constants are constants;
//      each converter adds PNNX nodes, or folds when its inputs are all constants
//   5. every node that cannot be translated (unknown op, unknown attribute, a form with no PNNX equivalent)
//      is collected, and all of them fail the import together in one OnnxImportError
//   6. the graph's outputs become pnnx.Output nodes named after the ONNX outputs; unused nodes are dropped

import { INPUT_TYPE, OUTPUT_TYPE, type Graph } from '../../../graph/graph.ts';
import type { InputShapes } from '../../../graph/shapes.ts';
import { validateGraph } from '../../../graph/validate.ts';
import { formatShape, type Shape } from '../../../tensor/shape.ts';
import type { Tensor } from '../../../tensor/tensor.ts';
import { onnx, type ModelProto, type TensorProto } from '../proto.ts';
import { Attrs } from './attributes.ts';
import { ImportContext, type OnnxNode, type Probed } from './context.ts';
import { OnnxImportError, OnnxModelError, Unsupported, type ImportProblem } from './errors.ts';
import { CONVERTERS } from './ops/index.ts';
import { fusePatterns } from './patterns.ts';
import { tensorFromProto, toNumber } from './tensor.ts';

export const MIN_OPSET = 6;
export const MAX_OPSET = 21;
/** What a dynamic dim other than the batch is bound to when the caller gives no shape (any size works). */
export const DEFAULT_SIZE = 224;

export interface OnnxImportOptions {
  /** Names the model in messages (default `<memory>`). */
  readonly file?: string;
  /** Shapes of the real inputs, by position or input name; needed only for dynamic dims. */
  readonly inputShape?: InputShapes;
}

export interface OnnxImport {
  readonly graph: Graph;
  readonly opset: number;
  readonly producer: string;
  /** Each real input's declared dims (a string for a named dynamic dim, '?' for an anonymous one). */
  readonly declared: ReadonlyArray<{ readonly name: string; readonly dims: ReadonlyArray<number | string> }>;
  /** Where the graph holds values computed for the bound input sizes only (empty: fully shape-agnostic). */
  readonly specialised: readonly string[];
}

interface Input {
  readonly name: string;
  readonly dims: Array<number | string>;
}

function decode(bytes: Uint8Array, file: string): ModelProto {
  try {
    return onnx.ModelProto.decode(bytes);
  } catch (e) {
    throw new OnnxModelError(`${file}: not an ONNX model (${(e as Error).message})`);
  }
}

function opsetOf(model: ModelProto, file: string): number {
  const entry = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === 'ai.onnx');
  if (!entry) throw new OnnxModelError(`${file}: the model imports no default-domain (ai.onnx) opset`);
  const opset = toNumber(entry.version);
  if (opset < MIN_OPSET || opset > MAX_OPSET) {
    throw new OnnxModelError(`${file}: ONNX opset ${opset} is not supported (the importer reads opsets ${MIN_OPSET} to ${MAX_OPSET})`);
  }
  return opset;
}

function realInputs(model: ModelProto, file: string): Input[] {
  const g = model.graph!;
  const initialised = new Set((g.initializer ?? []).map((t) => t.name));
  return (g.input ?? []).filter((v) => !initialised.has(v.name)).map((v) => {
    const tensor = v.type?.tensorType;
    if (!tensor) throw new OnnxModelError(`${file}: input "${v.name}" is not a tensor`);
    if (tensor.elemType !== onnx.TensorProto.DataType.FLOAT) {
      throw new OnnxModelError(`${file}: input "${v.name}" has element type ${tensor.elemType}; the engines take float32 inputs`);
    }
    const dims = (tensor.shape?.dim ?? []).map((d): number | string => {
      const value = toNumber(d.dimValue);
      return value > 0 ? value : d.dimParam || '?';
    });
    return { name: v.name!, dims };
  });
}

/** The caller's shape for each input, else the declared one with dynamic dims bound to defaults. */
function boundShapes(inputs: readonly Input[], given: InputShapes | undefined, file: string): Shape[] {
  return inputs.map((input, i) => {
    const chosen = Array.isArray(given) ? (given as readonly Shape[])[i] : (given as Readonly<Record<string, Shape>> | undefined)?.[input.name];
    if (chosen) {
      const fits = chosen.length === input.dims.length && chosen.every((d, k) => typeof input.dims[k] !== 'number' || input.dims[k] === d);
      if (!fits) throw new OnnxModelError(`${file}: input "${input.name}" is declared (${input.dims.join(',')}), the shape given is ${formatShape(chosen)}`);
      return [...chosen];
    }
    return input.dims.map((d, k) => (typeof d === 'number' ? d : k === 0 ? 1 : DEFAULT_SIZE));
  });
}

/** The probe's shapes: every dynamic dim times its own prime, so no two dynamic dims stay equal by chance. */
function probeShapes(inputs: readonly Input[], bound: readonly Shape[]): Shape[] | undefined {
  const primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
  let next = 0;
  const shapes = inputs.map((input, i) => input.dims.map((d, k) => (typeof d === 'number' ? d : bound[i]![k]! * primes[next++ % primes.length]!)));
  return next > 0 ? shapes : undefined;
}

interface Translation {
  readonly ctx: ImportContext;
  readonly problems: ImportProblem[];
  /** Nodes skipped because an input comes from a node that failed. */
  readonly unchecked: number;
}

function translate(model: ModelProto, file: string, opset: number, inputs: readonly Input[], shapes: readonly Shape[], decoded: Map<TensorProto, Tensor>, probe?: ReadonlyMap<string, Probed>): Translation {
  const g = model.graph!;
  const nodes = fusePatterns(g.node ?? [], g.initializer ?? [], (g.output ?? []).map((o) => o.name!), opset);
  const names = new Set<string>([...inputs.map((i) => i.name), ...(g.initializer ?? []).map((t) => t.name!), ...nodes.flatMap((n) => n.output ?? [])]);
  const consumers = new Map<string, number>();
  for (const name of [...nodes.flatMap((n) => n.input ?? []), ...(g.output ?? []).map((o) => o.name!)]) consumers.set(name, (consumers.get(name) ?? 0) + 1);
  const ctx = new ImportContext(file, opset, names, consumers, probe);
  const problems: ImportProblem[] = [];
  let unchecked = 0;
  const tensorOf = (t: TensorProto, what: string) => {
    let tensor = decoded.get(t);
    if (!tensor) decoded.set(t, (tensor = tensorFromProto(t, what)));
    return tensor;
  };
  for (const t of g.initializer ?? []) ctx.set(t.name!, { kind: 'const', tensor: tensorOf(t, `${file}: initializer "${t.name}"`) });
  inputs.forEach((input, i) => {
    const value = ctx.graph.value(input.name);
    value.annotation = { shape: shapes[i]!, dtype: 'f32' };
    value.shape = shapes[i]!;
    ctx.graph.addNode({ type: INPUT_TYPE, name: input.name, inputs: [], outputs: [value] });
    ctx.set(input.name, { kind: 'value', value });
  });
  const outputNames = (g.output ?? []).map((o) => o.name!);
  ctx.reserveNodeNames(outputNames);

  nodes.forEach((proto, index) => {
    const opType = proto.opType ?? '';
    const name = proto.name || `${opType}_${index}`;
    const fail = (reason: string) => problems.push({ node: name, opType, reason });
    if (proto.domain && proto.domain !== 'ai.onnx') return fail(`operator domain "${proto.domain}" is not supported (only the default ONNX domain)`);
    const converter = CONVERTERS.get(opType);
    if (!converter) return fail('no converter for this operator');
    const inputNames = proto.input ?? [];
    const missing = inputNames.filter((n) => n !== '' && !ctx.has(n));
    if (missing.length) {
      // Fed by a node that failed: that node is reported; a name nothing produces is the model's fault.
      const orphan = missing.find((n) => !names.has(n));
      if (orphan) fail(`input "${orphan}" is produced by no node`);
      else unchecked++;
      return;
    }
    const node: OnnxNode = {
      name, opType, opset, inputs: inputNames, outputs: proto.output ?? [],
      attrs: new Attrs(proto.attribute ?? [], `${opType} node "${name}"`),
    };
    ctx.current = node;
    try {
      converter(ctx, node);
      const unread = node.attrs.unread();
      if (unread.length) return fail(`attribute${unread.length > 1 ? 's' : ''} ${unread.join(', ')} not supported`);
      const unset = node.outputs.find((o) => o !== '' && !ctx.has(o) && (consumers.get(o) ?? 0) > 0);
      if (unset) fail(`output "${unset}" is used but not computed`);
    } catch (e) {
      if (e instanceof Unsupported || e instanceof OnnxModelError) return fail(e.message);
      throw new Error(`importing ${opType} node "${name}" of ${file}: ${(e as Error).message}`, { cause: e });
    } finally {
      ctx.current = undefined;
    }
  });

  for (const name of outputNames) {
    if (!ctx.has(name)) continue;
    ctx.releaseNodeName(name);
    const value = ctx.valueOf(ctx.get(name), name);
    ctx.graph.addNode({ type: OUTPUT_TYPE, name: ctx.freshNodeName(name), inputs: [value], outputs: [] });
  }
  dropUnused(ctx.graph);
  return { ctx, problems, unchecked };
}

/** Removes nodes whose outputs nothing reads (a Split's unused piece, a constant only shape math used). */
function dropUnused(graph: Graph): void {
  for (let removed = true; removed;) {
    removed = false;
    for (const node of [...graph.nodes]) {
      if (node.type === INPUT_TYPE || node.type === OUTPUT_TYPE) continue;
      if (node.outputs.every((v) => v.consumers.length === 0)) {
        graph.removeNode(node);
        removed = true;
      }
    }
  }
  graph.pruneValues();
}

/** The model and what the import found out about it (opset, declared inputs, specialised values). */
export function importOnnxModel(bytes: Uint8Array, options: OnnxImportOptions = {}): OnnxImport {
  const file = options.file ?? '<memory>';
  const model = decode(bytes, file);
  if (!model.graph) throw new OnnxModelError(`${file}: the model has no graph`);
  const opset = opsetOf(model, file);
  const inputs = realInputs(model, file);
  const shapes = boundShapes(inputs, options.inputShape, file);
  const decoded = new Map<TensorProto, Tensor>();
  let probe: Map<string, Probed> | undefined;
  const other = probeShapes(inputs, shapes);
  if (other) {
    // The probe only informs choices; a model that cannot run at its sizes is simply translated without it.
    try {
      const run = translate(model, file, opset, inputs, other, decoded);
      if (run.problems.length === 0) probe = run.ctx.snapshot();
    } catch {
      probe = undefined;
    }
  }
  const { ctx, problems, unchecked } = translate(model, file, opset, inputs, shapes, decoded, probe);
  if (problems.length) throw new OnnxImportError(file, opset, problems, unchecked);
  validateGraph(ctx.graph);
  return {
    graph: ctx.graph,
    opset,
    producer: `${model.producerName ?? ''} ${model.producerVersion ?? ''}`.trim(),
    declared: inputs,
    specialised: ctx.specialised,
  };
}

/** An ONNX model's bytes as a flowinfer graph (see importOnnxModel for what else the import reports). */
export function importOnnx(bytes: Uint8Array, options: OnnxImportOptions = {}): Graph {
  return importOnnxModel(bytes, options).graph;
}
