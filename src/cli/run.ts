// `flowinfer run <model> [--bin FILE] [--input FILE.npy | --fill V | --random SEED] [--json]`: one run,
// then each output's name, shape and summary (min, max, mean, first values); --json prints full arrays.

import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { readNpy } from '../format/npy.ts';
import { SeededRandom } from '../tensor/random.ts';
import { toFloat32 } from '../tensor/dtype.ts';
import { formatShape, numel } from '../tensor/shape.ts';
import { Tensor } from '../tensor/tensor.ts';
import { openModel } from './model-source.ts';
import type { OptLevel } from '../graph/passes/index.ts';
import { imageRunCommand, type ImageRunOptions } from './image.ts';

/** With `--image`: pictures in, classes or boxes out (image.ts). */
export interface RunOptions extends Partial<ImageRunOptions> {
  readonly bin?: string;
  readonly input?: string[];
  readonly fill?: number;
  readonly random?: number;
  readonly inputShape?: number[][];
  readonly engine?: 'fast' | 'reference';
  readonly optLevel?: OptLevel;
  readonly threads?: number;
  readonly json?: boolean;
}

function summary(t: Tensor): string {
  const d = t.f32;
  let min = Infinity, max = -Infinity, sum = 0;
  for (const x of d) {
    if (x < min) min = x;
    if (x > max) max = x;
    sum += x;
  }
  const first = [...d.subarray(0, 6)].map((x) => x.toPrecision(6)).join(', ');
  return `${formatShape(t.shape)}  min ${min.toPrecision(6)}  max ${max.toPrecision(6)}  mean ${(sum / d.length).toPrecision(6)}  first [${first}${d.length > 6 ? ', ...' : ''}]`;
}

export async function runCommand(spec: string, options: RunOptions): Promise<string> {
  const given = [options.input !== undefined, options.fill !== undefined, options.random !== undefined].filter(Boolean).length;
  if (given > 1) throw new UsageError('give one of --input, --fill and --random');
  if (options.image) {
    if (given > 0 || options.inputShape) throw new UsageError('--image makes the input: leave out --input, --fill, --random and --input-shape (use --size for the picture size)');
    return imageRunCommand(spec, { ...options, image: options.image });
  }
  const model = await openModel(spec, {
    bin: options.bin, engine: options.engine, inputShape: options.inputShape, optLevel: options.optLevel, threads: options.threads,
  });
  try {
    const inputs = model.inputs.map((info, i) => {
      if (options.input) {
        const file = options.input[i];
        if (!file) throw new UsageError(`the model has ${model.inputs.length} inputs: give --input for each`);
        const t = readNpy(readFileSync(file), file);
        return new Tensor('f32', t.shape, toFloat32(t.dtype, t.data));
      }
      const data = new Float32Array(numel(info.shape));
      if (options.fill !== undefined) data.fill(options.fill);
      else new SeededRandom(options.random ?? 0).fillUniform(data, 0, 1);
      return new Tensor('f32', info.shape, data);
    });
    const outputs = await model.run(inputs);
    if (options.json) {
      return JSON.stringify(Object.fromEntries(Object.entries(outputs).map(([name, t]) => [name, { shape: t.shape, data: Array.from(t.f32) }])));
    }
    return Object.entries(outputs).map(([name, t]) => `${name}  ${summary(t)}`).join('\n');
  } finally {
    await model.dispose();
  }
}
