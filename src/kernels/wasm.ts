// Types for the part of the WebAssembly JS API that flowinfer uses. The project's lib (ES2023) and
// @types/node 20 declare no `WebAssembly`; a global declaration here would collide the day either does
// (lib "DOM", a newer @types/node), so this module types the runtime object instead.

/** A WebAssembly.Memory created with `shared: true`. */
export interface SharedMemory {
  readonly buffer: SharedArrayBuffer;
  /** Grows by `deltaPages` 64 KiB pages; returns the previous size in pages. */
  grow(deltaPages: number): number;
}

/** A compiled WebAssembly.Module (opaque; structured-cloneable, so it can be posted to a worker). */
export interface WasmModule {
  readonly [Symbol.toStringTag]: string;
}

export interface WasmInstance {
  readonly exports: Readonly<Record<string, unknown>>;
}

interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: true }) => SharedMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => WasmInstance;
  Global: abstract new (...args: never[]) => { readonly value: unknown };
  validate(bytes: Uint8Array): boolean;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
