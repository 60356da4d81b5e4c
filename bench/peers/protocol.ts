// Messages between the peers benchmark (index.ts) and its engine hosts (host.ts), one child process per
// engine and thread count, so that each runtime has its own threads, heap and WebAssembly instance
// (onnxruntime-web's thread count is fixed per process when its wasm module starts).

export type EngineKind = 'flowinfer' | 'ort-web' | 'ort-node';

export interface Setup {
  readonly kind: 'setup';
  readonly engine: EngineKind;
  readonly threads: number;
  /** Zoo model name (flowinfer builds it; same seed as the ONNX files), or the ONNX model's name. */
  readonly model: string;
  /** An ONNX model (not from the zoo): flowinfer imports onnx[0] as every engine reads it. */
  readonly imported?: boolean;
  /** One frame every engine gets instead of seeded noise (a batch repeats it), e.g. a picture with text. */
  readonly frame?: Float32Array;
  readonly size: number;
  readonly seed: number;
  /** The batch sizes measured: 1 (latency, streaming) and the throughput batch. */
  readonly batches: readonly [number, number];
  /** ONNX files of the model at those batch sizes (onnxruntime engines). */
  readonly onnx: readonly [string, string];
  /** Frames in flight when streaming. */
  readonly inFlight: number;
}

export type Command =
  | Setup
  /** `count` runs of one frame, one after another: each run's latency. */
  | { readonly kind: 'latency'; readonly count: number }
  /** `count` runs of the throughput batch, one after another: each run's time. */
  | { readonly kind: 'batch'; readonly count: number }
  /** `frames` single frames with `inFlight` at once: the elapsed time and CPU used. */
  | { readonly kind: 'stream'; readonly frames: number }
  | { readonly kind: 'exit' };

export type Reply =
  | { readonly kind: 'ready'; readonly description: string; readonly output: Float32Array }
  | { readonly kind: 'times'; readonly ms: number[] }
  | { readonly kind: 'streamed'; readonly ms: number; readonly cpuMs: number }
  | { readonly kind: 'error'; readonly message: string };

/** The seeded input every engine gets: uniform [0, 1), frame k of a batch uses the same values. */
export function frameShape(batch: number, size: number): number[] {
  return [batch, 3, size, size];
}
