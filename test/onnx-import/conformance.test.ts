// The ONNX project's backend test data (../shared/reference/onnx/MANIFEST.json), one generic runner: every
// case is imported, run on the reference and the fast engine, and held to onnx's own comparison with the
// tolerance its README gives (rtol 1e-3, atol 1e-7; DenseNet-121 rtol 2e-3). Cases that do not run as-is
// are listed, each with its reason, in exclusions.json.

import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOnnx } from '../../src/format/onnx/import/index.ts';
import { loadModel, type LoadOptions } from '../../src/runtime/load.ts';
import { assertAllClose, caseInputs, ONNX_DATA, readManifest, readPb, SKIP_ONNX_DATA } from './support.ts';

interface Exclusion {
  readonly id: string;
  readonly engine: 'reference' | 'fast';
  readonly reason: string;
  readonly load?: Partial<LoadOptions>;
  readonly slow?: boolean;
}

const EXCLUSIONS = (JSON.parse(readFileSync(new URL('./exclusions.json', import.meta.url), 'utf8')) as { exclusions: Exclusion[] }).exclusions;
const FULL = process.env.FLOWINFER_ONNX_FULL === '1';

if (SKIP_ONNX_DATA) test('ONNX backend conformance', { skip: SKIP_ONNX_DATA }, () => {});

for (const c of readManifest()) {
  for (const engine of ['reference', 'fast'] as const) {
    const exclusion = EXCLUSIONS.find((e) => e.id === c.id && e.engine === engine);
    const skip = exclusion?.slow && !FULL ? `${exclusion.reason} (set FLOWINFER_ONNX_FULL=1 to run it)` : false;
    test(`${c.id} on the ${engine} engine`, { skip }, async (t) => {
      if (exclusion?.load) t.diagnostic(`run with ${JSON.stringify(exclusion.load)}: ${exclusion.reason}`);
      const graph = importOnnx(readFileSync(join(ONNX_DATA, c.model)), { file: c.id });
      const model = await loadModel(graph, { engine, threads: 2, ...exclusion?.load });
      try {
        const outputs = await model.run(caseInputs(c));
        const names = Object.keys(outputs);
        const { rtol, atol } = c.tolerance_hint;
        c.outputs.forEach((port, i) => {
          const want = readPb(join(ONNX_DATA, port.file!));
          const got = outputs[port.name] ?? outputs[names[i]!]!;
          const a = assertAllClose(got, want, rtol, atol, `${c.id} output ${port.name}`);
          t.diagnostic(`output ${port.name}: max |diff| ${a.maxAbs.toExponential(2)}, ${(100 * a.worst).toFixed(1)} % of the allowed error (rtol ${rtol}, atol ${atol})`);
        });
      } finally {
        await model.dispose();
      }
    });
  }
}
