// Per-frame result records to a file: JSON lines (.jsonl, .json, .ndjson: one object a line) or
// MessagePack (.msgpack, .mpk: records one after another, read back with msgpackr's unpackMultiple).
// Each record is written whole with one synchronous write, so a file cut short by Ctrl-C (or a crash)
// ends after a whole record: a JSON-lines file stays valid line by line.

import { closeSync, openSync, writeSync } from 'node:fs';
import { extname } from 'node:path';
import { pack } from 'msgpackr';
import { UsageError } from '../errors.ts';

export type RecordFormat = 'jsonl' | 'msgpack';

export function recordFormat(file: string): RecordFormat | undefined {
  const ext = extname(file).toLowerCase();
  if (['.jsonl', '.json', '.ndjson'].includes(ext)) return 'jsonl';
  if (['.msgpack', '.mpk'].includes(ext)) return 'msgpack';
  return undefined;
}

export class RecordWriter {
  private fd: number | undefined;
  records = 0;
  bytes = 0;

  /** `file` undefined: JSON lines on stdout. */
  constructor(
    readonly file: string | undefined,
    readonly format: RecordFormat = 'jsonl',
  ) {
    if (file !== undefined) {
      try {
        this.fd = openSync(file, 'w');
      } catch (e) {
        throw new UsageError(`--out ${file}: ${(e as Error).message}`);
      }
    }
  }

  write(record: object): void {
    const bytes = this.format === 'msgpack' ? pack(record) : Buffer.from(`${JSON.stringify(record)}\n`);
    if (this.fd !== undefined) {
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
    } else if (!process.stdout.destroyed) {
      // Synchronous for files and pipes on Linux; once the reader has gone (EPIPE) there is nobody to tell.
      process.stdout.write(bytes);
    }
    this.records++;
    this.bytes += bytes.length;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
