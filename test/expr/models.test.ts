// Every `expr=` in the shared PNNX files parses, types and evaluates on tensors of the shapes annotated on
// its line, and the fused kernel agrees with the evaluator there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileExpression, evaluateExpression, inferExpression, parseExpression } from '../../src/expr/index.ts';
import { parseDTypeSuffix } from '../../src/tensor/dtype.ts';
import { Tensor } from '../../src/tensor/tensor.ts';
import { randomTensor } from './support.ts';

const SHARED = fileURLToPath(new URL('../../../shared', import.meta.url));
/** What a `?` dim becomes in these tests. */
const DYNAMIC_STANDIN = 3;

function paramFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return paramFiles(path);
    return name.endsWith('.param') ? [path] : [];
  });
}

interface ExpressionLine {
  readonly where: string;
  readonly expr: string;
  readonly inputs: { shape: number[]; dtype: string; dynamic: boolean }[];
  readonly output?: { shape: number[]; dynamic: boolean };
}

/** `<type> <name> <n_in> <n_out> <inputs...> <outputs...> key=value ... #operand=(shape)dtype ...` */
function expressionLines(): ExpressionLine[] {
  const found: ExpressionLine[] = [];
  for (const file of paramFiles(SHARED)) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const fields = line.trim().split(/\s+/);
      const expr = fields.find((f) => f.startsWith('expr='))?.slice(5);
      if (expr === undefined) return;
      const nIn = Number(fields[2]);
      const operands = fields.slice(4, 4 + nIn + 1);
      const annotations = new Map<string, { shape: number[]; dtype: string; dynamic: boolean }>();
      for (const match of line.matchAll(/#([^=\s]+)=\(([^)]*)\)(\w+)/g)) {
        const dims = match[2] === '' ? [] : match[2]!.split(',');
        annotations.set(match[1]!, {
          shape: dims.map((d) => (d === '?' ? DYNAMIC_STANDIN : Number(d))),
          dtype: match[3]!,
          dynamic: dims.includes('?'),
        });
      }
      const where = `${file.slice(SHARED.length + 1)}:${i + 1} (${fields[1]})`;
      const inputs = operands.slice(0, nIn).map((name) => annotations.get(name) ?? assert.fail(`${where}: no shape annotated for operand ${name}`));
      found.push({ where, expr, inputs, output: annotations.get(operands[nIn]!) });
    });
  }
  return found;
}

test('every expr= in /work/shared parses and evaluates on its annotated shapes', (t) => {
  if (!existsSync(SHARED)) {
    t.skip(`${SHARED} is absent (the shared folder beside the checkout holds the PNNX files)`);
    return;
  }
  const lines = expressionLines();
  assert.ok(lines.length > 0, `no expr= lines under ${SHARED}`);
  for (const { where, expr, inputs, output } of lines) {
    const parsed = parseExpression(expr, { inputCount: inputs.length });
    const tensors = inputs.map(({ shape, dtype }, i) => {
      const values = randomTensor(shape, 17 + i);
      assert.equal(parseDTypeSuffix(dtype), 'f32', `${where}: test data is f32 only`);
      return new Tensor('f32', shape, values.f32);
    });
    const rule = inferExpression(parsed, inputs.map(({ shape }) => ({ shape })));
    const out = evaluateExpression(parsed, tensors);
    assert.deepEqual([out.shape, out.dtype], [rule.shape, rule.dtype], where);
    if (output && !output.dynamic && !inputs.some((i) => i.dynamic)) assert.deepEqual(out.shape, output.shape, `${where}: annotated output shape`);
    const compiled = compileExpression(parsed, inputs.map((i) => i.shape));
    const fused = new Float32Array(compiled.outputSize);
    compiled.run(tensors.map((x) => x.f32), fused);
    assert.deepEqual(fused, out.f32, where);
  }
  t.diagnostic(`${lines.length} expressions checked, ${new Set(lines.map((l) => l.expr)).size} distinct`);
});
