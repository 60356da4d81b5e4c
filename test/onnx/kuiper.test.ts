// Every KuiperInfer reference model (../shared/reference/kuiper) exported to ONNX: onnxruntime-node
// reproduces PyTorch's CSV output within the case's tolerance (so the oracle itself is checked), and
// flowinfer's reference and fast engines agree with onnxruntime within 1e-4 of the largest magnitude.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportOnnx } from '../../src/format/onnx/index.ts';
import { loadPnnxFiles } from '../../src/format/pnnx/load.ts';
import { SKIP_SHARED, kuiper } from '../helpers/shared.ts';
import { compareSelection, kuiperCases, makeInput, readCsv } from '../helpers/kuiper.ts';
import { runOrt } from './helpers.ts';
import { checkModel } from './model-check.ts';

const cases = SKIP_SHARED ? [] : kuiperCases();
if (SKIP_SHARED) test('KuiperInfer models through ONNX', { skip: SKIP_SHARED }, () => {});

for (const c of cases) {
  test(`onnxruntime oracle: ${c.id} (${c.ops.join(', ')})`, async (t) => {
    const graph = loadPnnxFiles(kuiper(c.param), { bin: kuiper(c.bin) });
    const inputs = { [graph.nodes.find((n) => n.type === 'pnnx.Input')!.name]: makeInput(c) };
    const ort = Object.values(await runOrt(exportOnnx(graph, { inputShape: [c.input.shape] }), inputs))[0]!;
    for (const e of c.expected) {
      const problems = compareSelection(ort, e, readCsv(e.csv), c.tolerance.abs);
      assert.deepEqual(problems, [], `onnxruntime vs PyTorch ${e.csv}:\n${problems.join('\n')}`);
    }
    await checkModel(t, graph, inputs);
  });
}
