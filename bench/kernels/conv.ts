// Convolution benchmark: every distinct nn.Conv2d of ResNet-18 and MobileNetV2 at 224 x 224, batch 1
// (shapes from ../shared/models/topologies), through the real lowering (src/ops/fast/conv.ts: packing,
// indirection, tile plans) on 1 thread (the main thread runs every tile) and on 2 threads (the main thread
// and a polling worker share the tiles through an atomic counter, conv-pool.ts), each beside the SIMD
// ceiling of the same build and thread count in interleaved rounds; then the models' convolution totals
// in ms (each layer x its count, best rounds). Stems that run as row taps are also measured on the
// plain IGEMM path, the alternative the row taps replaced.
//
//   npm run bench:kernels -- --section conv [--rounds N] [--models resnet18,mobilenet_v2]
// or alone, one build:  node --import tsx bench/kernels/conv.ts [--rounds N]
//                        FLOWINFER_SIMD=relaxed node --experimental-wasm-relaxed-simd --import tsx bench/kernels/conv.ts
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePnnxParam } from '../../src/format/pnnx/parse-param.ts';
import { Graph, type Node } from '../../src/graph/graph.ts';
import { P } from '../../src/graph/param.ts';
import { inferShapes } from '../../src/graph/shapes.ts';
import { chooseVariant, compileKernels, createKernelMemory, instantiateKernels, type KernelExports, type SimdVariant } from '../../src/kernels/module.ts';
import type { SharedMemory, WasmModule } from '../../src/kernels/wasm.ts';
import { parseConvParams } from '../../src/ops/conv-params.ts';
import { choosePath, lowerConv, type ConvPath } from '../../src/ops/fast/conv.ts';
import { defaultRegistry } from '../../src/ops/registry.ts';
import type { BuildContext, PlannedStep } from '../../src/runtime/fast/lowering.ts';
import { viewFloats, type TensorView } from '../../src/runtime/fast/views.ts';
import { Arena } from '../../src/tensor/arena.ts';
import { initWeights } from '../../src/zoo/init-weights.ts';
import { ConvPair } from './conv-pool.ts';
import { measure, type Rate } from './timing.ts';

const TOPOLOGIES = fileURLToPath(new URL('../../../shared/models/topologies/', import.meta.url));
const MODELS: Record<string, string> = { resnet18: 'resnet18_batch1.pnnx.param', mobilenet_v2: 'mobilenet_v2.pnnx.param' };

interface Layer {
  readonly key: string;
  readonly names: string[];
  readonly node: Node;
  readonly flop: number;
}

/** The model's distinct convolutions (params, input shape and the activation fused after it), with counts. */
function distinctConvs(file: string): Layer[] {
  const graph = parsePnnxParam(readFileSync(`${TOPOLOGIES}${file}`), file);
  initWeights(graph, defaultRegistry, 1);
  inferShapes(graph, defaultRegistry.bindAll(graph));
  const layers = new Map<string, Layer>();
  for (const node of graph.nodes) {
    if (node.type !== 'nn.Conv2d') continue;
    const c = parseConvParams(node, false);
    const x = node.inputs[0]!.shape!;
    const y = node.outputs[0]!.shape!;
    const consumers = node.outputs[0]!.consumers;
    const act = consumers.length === 1 && ['nn.ReLU', 'nn.ReLU6'].includes(consumers[0]!.type) ? consumers[0]!.type : undefined;
    const key = `${x[1]}>${c.outChannels} ${x[2]}x${x[3]} k${c.kernel[0]}s${c.stride[0]}${c.groups > 1 ? ` g${c.groups}` : ''}${act ? ` ${act.slice(3).toLowerCase()}` : ''}`;
    const known = layers.get(key);
    if (known) {
      known.names.push(node.name);
      continue;
    }
    const g = new Graph(file);
    const [xi, yo] = [g.value('x'), g.value('y')];
    xi.shape = x;
    yo.shape = y;
    const params = [...node.params];
    if (act) params.push(['flowinfer.activation', P.string(act)]);
    const copy = g.addNode({ type: node.type, name: node.name, inputs: [xi], outputs: [yo], params, weights: [...node.weights] });
    const macs = y.reduce((a, b) => a * b, 1) * (c.inChannels / c.groups) * c.kernel[0] * c.kernel[1];
    layers.set(key, { key, names: [node.name], node: copy, flop: 2 * macs });
  }
  return [...layers.values()];
}

interface Built {
  readonly path: string;
  readonly one: PlannedStep[];
  readonly two: PlannedStep[];
}

/** Lowers a layer twice (tile plans for 1 and 2 threads) onto a fresh slot of `arena`, input filled. */
function build(arena: Arena, layer: Layer, path?: ConvPath): Built {
  const node = layer.node;
  const lowered = lowerConv(node, undefined, { path });
  if (!lowered) throw new Error(`${layer.key}: not lowered`);
  const view = (shape: readonly number[], offset: number): TensorView => ({ offset, shape, layout: 'nhwc', pixelStride: shape[1]! });
  const input = view(node.inputs[0]!.shape!, 0);
  const output = view(node.outputs[0]!.shape!, Math.ceil(viewFloats(input) / 16) * 64);
  const scratchAt = output.offset + Math.ceil(viewFloats(output) / 16) * 64;
  const scratch = (lowered.scratch ?? []).map((bytes, i, all): TensorView => ({
    offset: scratchAt + all.slice(0, i).reduce((s, b) => s + Math.ceil(b / 64) * 64, 0), shape: [bytes / 4], layout: 'plain', pixelStride: 1,
  }));
  const slotBytes = scratchAt + (lowered.scratch ?? []).reduce((s, b) => s + Math.ceil(b / 64) * 64, 0);
  const base = arena.alloc(slotBytes, 64);
  const x = arena.f32(base, viewFloats(input));
  for (let i = 0; i < x.length; i++) x[i] = Math.random() * 2 - 1;
  const steps = (threads: number) => {
    const ctx: BuildContext = {
      arena, slotBases: [base], threads,
      view: (v) => (v === node.inputs[0] ? input : output),
      scratch: (i) => scratch[i]!,
    };
    return lowered.build(ctx);
  };
  return { path: path ?? choosePath(parseConvParams(node, false)), one: steps(1), two: steps(2) };
}

/** Every tile of every step, on this thread, in order (slot 0). */
function runHere(k: KernelExports, steps: readonly PlannedStep[]): void {
  for (const { step, tiles } of steps) {
    if (step.kind === 'range') {
      const fn = k[step.fn];
      for (let t = 0; t < tiles; t++) fn(step.params[0]!, t * step.perTile, Math.min(step.units, (t + 1) * step.perTile));
    } else if (step.kind === 'gemm') {
      // One block over all of C, as the GEMM benchmark's 1-thread figure.
      k.f32_gemm_4x8(step.params[0]!, 0, step.m, 0, step.panels);
    } else {
      throw new Error(`unexpected step ${step.kind}`);
    }
  }
}

const pct = (x: number, of: number) => `${Math.round((100 * x) / of)}%`.padStart(5);
const gf = (x: number) => x.toFixed(1).padStart(6);
const ms = (x: number) => x.toFixed(2).padStart(7);

/** The convolution section of one build; prints its table and returns its summary line. */
export async function benchConvs(variant: SimdVariant, module: WasmModule, rounds: number, models = Object.keys(MODELS)): Promise<string> {
  if (!existsSync(TOPOLOGIES)) {
    console.log(`\nconvolutions: ${TOPOLOGIES} is absent, skipped`);
    return 'convolutions skipped';
  }
  const memory: SharedMemory = createKernelMemory({ initialPages: 16 });
  const kernels = instantiateKernels(module, memory, variant).exports;
  const arena = new Arena(memory);
  const control = arena.alloc(64, 64);
  const pool = await ConvPair.start(memory, module, kernels, control);
  const totals: string[] = [];
  try {
    const iters = 1_000_000;
    const peak1 = { run: () => void kernels.f32x4_peak_u12(iters, 0.999999, 1e-6), flop: iters * 96 };
    const peak2 = { run: () => pool.runCeiling(iters), flop: 2 * iters * 96 };
    for (const model of models) {
      const layers = distinctConvs(MODELS[model]!);
      console.log(`\n${variant} build, ${model} at 224, batch 1: ${layers.length} distinct convolutions (GFLOP/s, best of ${rounds} interleaved rounds; ms = best round x count)`);
      console.log(
        `${'layer'.padEnd(30)} ${'n'.padStart(2)} ${'path'.padEnd(7)} ${'MFLOP'.padStart(7)} ${'ceil1T'.padStart(6)} ${'1T'.padStart(6)} ${'%ceil'.padStart(5)}` +
          ` ${'ceil2T'.padStart(6)} ${'2T'.padStart(6)} ${'%ceil'.padStart(5)} ${'2T/1T'.padStart(6)} ${'ms 1T'.padStart(7)} ${'ms 2T'.padStart(7)}`,
      );
      let t1 = 0;
      let t2 = 0;
      let flops = 0;
      const row = (key: string, count: number, path: string, flop: number, p1: Rate, r1: Rate, p2: Rate, r2: Rate) => {
        const m1 = (count * flop) / (r1.best * 1e6);
        const m2 = (count * flop) / (r2.best * 1e6);
        console.log(
          `${key.padEnd(30)} ${String(count).padStart(2)} ${path.padEnd(7)} ${(flop / 1e6).toFixed(1).padStart(7)} ${gf(p1.best)} ${gf(r1.best)} ${pct(r1.best, p1.best)}` +
            ` ${gf(p2.best)} ${gf(r2.best)} ${pct(r2.best, p2.best)} ${`x${(r2.best / r1.best).toFixed(2)}`.padStart(6)} ${ms(m1)} ${ms(m2)}`,
        );
        return [m1, m2] as const;
      };
      for (const layer of layers) {
        const b = build(arena, layer);
        const cases = (built: Built) => [
          { run: () => runHere(kernels, built.one), flop: layer.flop },
          { run: () => { for (const s of built.two) pool.run(s.step, s.tiles); }, flop: layer.flop },
        ];
        // The stems' row taps against the plain IGEMM they replace, in the same rounds.
        const alternative = b.path === 'rowtaps' ? build(arena, layer, 'igemm') : undefined;
        const rates = measure([peak1, peak2, ...cases(b), ...(alternative ? cases(alternative) : [])], rounds);
        const [p1, p2, r1, r2] = rates as [Rate, Rate, Rate, Rate];
        const count = layer.names.length;
        const [m1, m2] = row(layer.key, count, b.path, layer.flop, p1, r1, p2, r2);
        if (alternative) row('  (instead: plain IGEMM)', count, 'igemm', layer.flop, p1, rates[4]!, p2, rates[5]!);
        t1 += m1;
        t2 += m2;
        flops += count * layer.flop;
      }
      const line = `${model} convolutions (${(flops / 1e9).toFixed(2)} GFLOP): ${t1.toFixed(1)} ms on 1 thread (${(flops / t1 / 1e6).toFixed(1)} GFLOP/s), ` +
        `${t2.toFixed(1)} ms on 2 (${(flops / t2 / 1e6).toFixed(1)} GFLOP/s)`;
      console.log(line);
      totals.push(`${variant} ${line}`);
    }
  } finally {
    await pool.close();
  }
  return totals.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const variant = chooseVariant();
  console.log(await benchConvs(variant, compileKernels(variant), Number(option('rounds') ?? 7), option('models')?.split(',')));
}
