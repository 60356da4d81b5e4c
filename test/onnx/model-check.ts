// A whole model against onnxruntime-node: the graph is exported as loaded (no optimisation), run on
// onnxruntime, and held to flowinfer's reference and fast engines on the same input; the graph the
// optimiser leaves (fused residuals and activations, folded batch-norms) is exported and checked too.

import type { TestContext } from 'node:test';
import { exportOnnx } from '../../src/format/onnx/index.ts';
import type { Graph } from '../../src/graph/graph.ts';
import { loadModel } from '../../src/runtime/load.ts';
import type { Tensor } from '../../src/tensor/tensor.ts';
import { agree, cloneGraph, runOrt } from './helpers.ts';

export interface ModelDiffs {
  readonly reference: number;
  readonly fast: number;
  /** onnxruntime on the optimised graph's export vs onnxruntime on the plain one. */
  readonly optimisedExport: number;
}

/** Checks the model with inputs by input name; returns the worst relative differences. */
export async function checkModel(t: TestContext, graph: Graph, inputs: Readonly<Record<string, Tensor>>, threads = 2): Promise<ModelDiffs> {
  const shapes = Object.fromEntries(graph.inputs.map((v) => [v.name, inputs[v.producer!.name]!.shape]));
  const want = await runOrt(exportOnnx(graph, { inputShape: shapes }), inputs);
  const diffs = { reference: 0, fast: 0, optimisedExport: 0 };
  let fused = 0;
  for (const engine of ['reference', 'fast'] as const) {
    const model = await loadModel(cloneGraph(graph), { engine, threads, inputShape: shapes });
    try {
      const got = await model.run(inputs);
      for (const [name, w] of Object.entries(want)) diffs[engine] = Math.max(diffs[engine], agree(got[name]!, w, `${engine} engine vs onnxruntime: ${name}`));
      if (engine === 'reference') {
        fused = model.graph.nodes.filter((n) => [...n.params.keys()].some((k) => k.startsWith('flowinfer.'))).length;
        const optimised = await runOrt(exportOnnx(model.graph), inputs);
        for (const [name, w] of Object.entries(want)) {
          diffs.optimisedExport = Math.max(diffs.optimisedExport, agree(optimised[name]!, w, `optimised graph's export vs plain export: ${name}`));
        }
      }
    } finally {
      await model.dispose();
    }
  }
  t.diagnostic(`worst relative difference vs onnxruntime: reference ${diffs.reference.toExponential(2)}, fast ${diffs.fast.toExponential(2)}, optimised export ${diffs.optimisedExport.toExponential(2)} (${fused} nodes with fused ops)`);
  return diffs;
}
