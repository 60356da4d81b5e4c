// WebAssembly text -> binary, through wabt (the WebAssembly Binary Toolkit compiled to JavaScript) rather
// than an encoder of our own. wabt starts asynchronously (~70 ms, once per process), so whoever lowers
// graphs awaits loadWatEncoder() first (FastEngine.create does); encoding itself is synchronous.

import type wabtInit from 'wabt';
import { wasm } from './wasm.ts';

type Wabt = Awaited<ReturnType<typeof wabtInit>>;

let encoder: Wabt | undefined;
let loading: Promise<Wabt> | undefined;

/** Starts wabt once per process; later calls return at once. */
export async function loadWatEncoder(): Promise<void> {
  loading ??= import('wabt').then((m) => m.default());
  encoder ??= await loading;
}

/** Whether loadWatEncoder() has finished, so watToWasm() can run. */
export const watEncoderReady = (): boolean => encoder !== undefined;

/** The binary of a module in WebAssembly text (SIMD and shared memory enabled); throws on invalid text. */
export function watToWasm(text: string, name = 'module.wat'): Uint8Array {
  if (encoder === undefined) throw new Error('internal: watToWasm before loadWatEncoder() finished');
  const module = encoder.parseWat(name, text, { simd: true, threads: true });
  let bytes: Uint8Array;
  try {
    bytes = module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
  // wabt's own validator refuses shared memories whatever the features given; V8's is the one that counts.
  if (!wasm.validate(bytes)) throw new Error(`internal: ${name} does not validate`);
  return bytes;
}
