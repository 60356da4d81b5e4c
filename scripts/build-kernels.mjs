// Builds the AssemblyScript kernels (src/kernels/assembly/) twice, from one source:
//   build/kernels.wasm          --enable simd,threads          f32x4 mul + add
//   build/kernels-relaxed.wasm  --enable relaxed-simd,threads  f32x4.relaxed_madd (ASC_FEATURE_RELAXED_SIMD)
// Both import a shared memory (env.memory) whose maximum is MAX_PAGES from src/kernels/abi.ts, with
// static data placed at STATIC_DATA_BASE and checked to end below ZERO_BUFFER. Runs as `npm run
// build:kernels` and as the `prepare` script (npm runs it on `npm install` / `npm ci`).
// Prints one line on success; on failure the compiler's diagnostics and exit code 1.
import { mkdirSync, readFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const abi = readAbi(`${root}src/kernels/abi.ts`);

const builds = [
  { out: 'build/kernels.wasm', features: 'simd,threads' },
  { out: 'build/kernels-relaxed.wasm', features: 'relaxed-simd,threads' },
];

if (isMainThread) {
  const started = performance.now();
  mkdirSync(`${root}build`, { recursive: true });
  // asc is single-threaded and each build takes a few seconds: compile the two in parallel workers.
  const results = await Promise.all(builds.map((build) => compileInWorker(build)));
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) {
    for (const r of failed) process.stderr.write(`build-kernels: ${r.out} failed\n${r.log}`);
    process.exit(1);
  }
  for (const r of results) checkStaticData(r);
  const sizes = results.map((r) => `${r.out} ${(r.bytes / 1024).toFixed(0)} KiB`).join(', ');
  console.log(`build-kernels: ${sizes} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} else {
  const { out, features } = workerData;
  const asc = await import('assemblyscript/asc');
  const log = [];
  const sink = { write: (chunk) => (log.push(String(chunk)), true) };
  const { error } = await asc.main(
    [
      'src/kernels/assembly/index.ts',
      '--outFile', out,
      '--enable', features,
      '--importMemory', '--noExportMemory', '--sharedMemory',
      '--initialMemory', String(abi.RESERVED_BYTES / abi.PAGE_BYTES),
      '--maximumMemory', String(abi.MAX_PAGES),
      '--memoryBase', String(abi.STATIC_DATA_BASE),
      '--runtime', 'stub',
      '-O3', '--noAssert',
      '--baseDir', root,
    ],
    { stdout: sink, stderr: sink },
  );
  const bytes = error ? 0 : readFileSync(`${root}${out}`).length;
  parentPort.postMessage({ out, ok: !error, log: log.join(''), bytes });
}

function compileInWorker(build) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: build });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** `export const NAME = 123;` lines of abi.ts (the file is kept to that form for both compilers). */
function readAbi(path) {
  const values = {};
  for (const m of readFileSync(path, 'utf8').matchAll(/^export const (\w+) = (-?\d+);$/gm)) {
    values[m[1]] = Number(m[2]);
  }
  return values;
}

/**
 * Active data segments are re-applied by every instantiation, i.e. by every worker, on the shared
 * memory; they must stay inside [STATIC_DATA_BASE, ZERO_BUFFER). Today there are none.
 */
function checkStaticData({ out }) {
  const bytes = readFileSync(`${root}${out}`);
  let end = abi.STATIC_DATA_BASE;
  for (const segment of dataSegments(bytes)) end = Math.max(end, segment.offset + segment.size);
  if (end > abi.ZERO_BUFFER) {
    process.stderr.write(`build-kernels: ${out}: static data ends at ${end}, past ZERO_BUFFER ${abi.ZERO_BUFFER}\n`);
    process.exit(1);
  }
}

/** Active data segments (offset given as i32.const) of a wasm binary. */
function dataSegments(bytes) {
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return value;
    }
  };
  const segments = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 11) {
      for (let count = leb(); count > 0; count--) {
        const kind = leb();
        if (kind === 1) throw new Error('build-kernels: passive data segments are not expected');
        if (kind === 2) leb(); // memory index
        if (bytes[at++] !== 0x41) throw new Error('build-kernels: data offset is not an i32.const');
        const offset = leb();
        at++; // end
        const length = leb();
        segments.push({ offset, size: length });
        at += length;
      }
    }
    at = end;
  }
  return segments;
}
