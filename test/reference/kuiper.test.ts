// Every KuiperInfer reference case: the reference engine reproduces PyTorch's CSV output within the
// case's stated absolute tolerance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../src/runtime/load.ts';
import { SKIP_SHARED, kuiper } from '../helpers/shared.ts';
import { compareSelection, kuiperCases, makeInput, readCsv } from '../helpers/kuiper.ts';

const cases = SKIP_SHARED ? [] : kuiperCases();
if (SKIP_SHARED) test('KuiperInfer reference cases', { skip: SKIP_SHARED }, () => {});

for (const c of cases) {
  test(`PyTorch reference: ${c.id} (${c.features})`, async () => {
    const model = await loadModel(kuiper(c.param), { bin: kuiper(c.bin), engine: 'reference' });
    const outputs = await model.run(makeInput(c));
    const out = Object.values(outputs)[0]!;
    for (const e of c.expected) {
      const problems = compareSelection(out, e, readCsv(e.csv), c.tolerance.abs);
      assert.deepEqual(problems, [], `${c.id} vs ${e.csv}:\n${problems.join('\n')}`);
    }
  });
}
