// Cutting a byte stream (ffmpeg's rawvideo stdout) into frames of exactly `frameBytes` bytes.
//
// `readable.read(n)` hands out exactly n bytes once n are buffered (raising the buffer's high-water mark
// to fit), so nothing is copied twice. While nobody reads, the stream's buffer fills and Node stops
// reading the pipe: ffmpeg then blocks on its write. That is the backpressure of `--policy block`.

import type { Readable } from 'node:stream';

export interface FrameReadResult {
  /** Bytes left at the end that did not make a whole frame (0 for a well-formed stream). */
  trailing: number;
}

/**
 * Whole frames, in order; `result.trailing` is set once the stream has ended.
 * The listeners stay attached for the whole read: attaching a 'readable' listener afresh re-emits
 * 'readable' whenever a partial frame is buffered, which would spin without ever reading the pipe.
 */
export async function* readFrames(stream: Readable, frameBytes: number, result: FrameReadResult = { trailing: 0 }): AsyncGenerator<Buffer> {
  if (!(frameBytes > 0)) throw new RangeError(`frame size must be positive, got ${frameBytes}`);
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const fail = (e: Error) => {
    failure = e;
    notify();
  };
  stream.on('readable', notify);
  stream.on('end', notify);
  stream.on('close', notify);
  stream.on('error', fail);
  try {
    for (;;) {
      if (failure) throw failure;
      const chunk = stream.read(frameBytes) as Buffer | null;
      if (chunk !== null) {
        // At the end read(n) returns what is left even if shorter: a partial frame.
        if (chunk.length < frameBytes) result.trailing = chunk.length;
        else yield chunk;
        continue;
      }
      if (stream.readableEnded || stream.destroyed) return;
      // read() returned null: 'readable' fires once more bytes (or the end) arrive.
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('readable', notify);
    stream.off('end', notify);
    stream.off('close', notify);
    stream.off('error', fail);
  }
}
