// Op mapping cases as data: one PNNX node (or a few lines) per case, exported, run on onnxruntime-node and
// held to flowinfer's reference engine. A case names the node's type, its params and weights as a
// .pnnx.param line writes them, and its input shapes; weights are seeded.

import { test } from 'node:test';
import { exportOnnx } from '../../src/format/onnx/index.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { loadModel } from '../../src/runtime/load.ts';
import { formatShape, type Shape } from '../../src/tensor/shape.ts';
import type { Tensor } from '../../src/tensor/tensor.ts';
import { agree, pnnxGraph, randomTensor, runOrt } from './helpers.ts';

export interface OpCase {
  readonly name: string;
  readonly type?: string;
  /** Params and weights as on a .pnnx.param line: `kernel_size=(3,3) @weight=(6,4,3,3)f32`. */
  readonly args?: string;
  readonly inputs: readonly Shape[];
  readonly outputs?: number;
  /** Range of the seeded inputs (default [-1, 1)). */
  readonly range?: readonly [number, number];
  /** Whole operator lines instead of one node (inputs in0.., outputs out0..). */
  readonly lines?: readonly string[];
  /** Changes the graph after its seeded weights are made (e.g. to write particular constants). */
  readonly prepare?: (graph: Graph) => void;
}

/** The graph of a case: inputs in0.. (operands x0..), the node `op`, outputs out0.. (operands y0..). */
export function caseLines(c: OpCase): string[] {
  if (c.lines) return [...c.lines];
  const ins = c.inputs.map((_, i) => `x${i}`);
  const outs = Array.from({ length: c.outputs ?? 1 }, (_, i) => `y${i}`);
  return [
    ...c.inputs.map((s, i) => `pnnx.Input in${i} 0 1 x${i} #x${i}=(${s.join(',')})f32`),
    `${c.type} op ${ins.length} ${outs.length} ${ins.join(' ')} ${outs.join(' ')} ${c.args ?? ''}`,
    ...outs.map((y, i) => `pnnx.Output out${i} 1 0 ${y}`),
  ];
}

/** Exports the case, runs it on onnxruntime and the reference engine; returns the worst relative difference. */
export async function checkCase(c: OpCase): Promise<number> {
  const graph = pnnxGraph(caseLines(c));
  c.prepare?.(graph);
  const model = exportOnnx(graph);
  const inputs: Record<string, Tensor> = Object.fromEntries(c.inputs.map((s, i) => [`in${i}`, randomTensor(s, 11 + i, ...(c.range ?? [-1, 1]))]));
  const ort = await runOrt(model, inputs);
  const reference = await loadModel(graph, { engine: 'reference', optLevel: 0 });
  try {
    const want = await reference.run(inputs);
    let worst = 0;
    for (const [name, t] of Object.entries(want)) worst = Math.max(worst, agree(ort[name]!, t, `${c.name}: ${name}`));
    return worst;
  } finally {
    await reference.dispose();
  }
}

/** One node:test test per case. */
export function opTests(suite: string, cases: readonly OpCase[]): void {
  for (const c of cases) {
    test(`${suite}: ${c.name} ${c.inputs.map((s) => formatShape(s)).join(' ')}`, async (t) => {
      t.diagnostic(`worst relative difference ${(await checkCase(c)).toExponential(2)}`);
    });
  }
}
