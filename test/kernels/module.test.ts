// Loading the kernel module: variant choice, the shared memory, the ABI check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACT_COUNT, MAX_PAGES, RESERVED_BYTES } from '../../src/kernels/abi.ts';
import {
  chooseVariant,
  compileKernels,
  createKernelMemory,
  instantiateKernels,
  loadKernels,
  relaxedSimdSupported,
} from '../../src/kernels/module.ts';
import { wasm } from '../../src/kernels/wasm.ts';

function withSimdEnv<T>(value: string | undefined, run: () => T): T {
  const saved = process.env.FLOWINFER_SIMD;
  if (value === undefined) delete process.env.FLOWINFER_SIMD;
  else process.env.FLOWINFER_SIMD = value;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.FLOWINFER_SIMD;
    else process.env.FLOWINFER_SIMD = saved;
  }
}

test('auto picks relaxed exactly when this runtime validates relaxed SIMD; plain can always be forced', () => {
  const auto = relaxedSimdSupported() ? 'relaxed' : 'plain';
  assert.equal(withSimdEnv(undefined, () => chooseVariant()), auto);
  assert.equal(withSimdEnv('auto', () => chooseVariant()), auto);
  assert.equal(withSimdEnv('plain', () => chooseVariant()), 'plain');
  assert.equal(withSimdEnv('relaxed', () => chooseVariant('plain')), 'plain', 'the option wins over the environment');
});

test('FLOWINFER_SIMD with an unknown value, or relaxed where it cannot run, is an error that says what to do', () => {
  assert.throws(() => withSimdEnv('avx', () => chooseVariant()), /FLOWINFER_SIMD=avx: expected plain, relaxed or auto/);
  if (relaxedSimdSupported()) {
    assert.equal(withSimdEnv('relaxed', () => chooseVariant()), 'relaxed');
  } else {
    assert.throws(() => withSimdEnv('relaxed', () => chooseVariant()), /--experimental-wasm-relaxed-simd/);
    assert.throws(() => chooseVariant('relaxed'), /simd: 'relaxed'/);
  }
});

test('the kernel memory is shared, starts at the reserved region and may grow to MAX_PAGES', () => {
  const memory = createKernelMemory();
  assert.ok(memory.buffer instanceof SharedArrayBuffer);
  assert.equal(memory.buffer.byteLength, RESERVED_BYTES);
  assert.equal(memory.grow(3), 1);
  assert.equal(memory.buffer.byteLength, RESERVED_BYTES + 3 * 65536);
  assert.throws(() => createKernelMemory({ initialPages: 0 }), /initialPages 0/);
  assert.throws(() => createKernelMemory({ maximumPages: MAX_PAGES + 1 }), /maximumPages 65537/);
  assert.throws(() => createKernelMemory({ initialPages: 8, maximumPages: 4 }), /initialPages <= maximumPages/);
});

test('each loadable build instantiates on a memory with a smaller maximum, and exports the kernels', () => {
  const memory = createKernelMemory({ initialPages: 2, maximumPages: 1024 });
  for (const simd of relaxedSimdSupported() ? (['plain', 'relaxed'] as const) : (['plain'] as const)) {
    const kernels = loadKernels(memory, { simd });
    assert.equal(kernels.variant, simd);
    assert.equal(typeof kernels.exports.f32_gemm_4x8, 'function');
  }
});

test('a binary built from another abi.ts is refused at instantiation, naming the constant', () => {
  const memory = createKernelMemory();
  const empty = new wasm.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  assert.throws(() => instantiateKernels(empty, memory, 'plain'), new RegExp(`another src/kernels/abi\\.ts: ACT_COUNT is missing in the binary, ${ACT_COUNT} in abi\\.ts: run npm run build:kernels`));
  assert.doesNotThrow(() => instantiateKernels(compileKernels('plain'), memory, 'plain'));
});
