// The .pnnx.bin weight archive (pnnx-spec.md §2): a stored zip (zip32 or zip64) whose entries are named
// `<op name>.<attr key>` and hold the attribute's raw little-endian bytes, with no header.
//
// Memory: the file's bytes (copy 1) are unzipped by fflate into one fresh, aligned buffer per entry
// (copy 2); typed arrays then view those buffers directly, and the file's bytes can be dropped.

import { unzipSync, zipSync, type Zippable } from 'fflate';
import { WeightError } from '../../errors.ts';
import type { Graph } from '../../graph/graph.ts';
import { DTYPE_BYTES, viewAs } from '../../tensor/dtype.ts';
import { formatShape, numel } from '../../tensor/shape.ts';

/** The archive's entries by name. */
export function readPnnxBin(bytes: Uint8Array, file = '<bytes>'): Map<string, Uint8Array> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes);
  } catch (e) {
    throw new WeightError(`${file}: not a readable .pnnx.bin zip archive (${(e as Error).message})`);
  }
  return new Map(Object.entries(entries));
}

/**
 * Attaches each declared `@attr` of every node to its bytes in `entries`, checking that the entry exists and
 * that its length is product(shape) x element size. Attributes with an empty shape or a null dtype hold no data.
 */
export function bindWeights(graph: Graph, entries: ReadonlyMap<string, Uint8Array>, binFile = '<bytes>'): void {
  for (const node of graph.nodes) {
    for (const [key, weight] of node.weights) {
      if (weight.dtype === null || weight.shape.length === 0) continue;
      const entryName = `${node.name}.${key}`;
      const where = `${node.type} node "${node.name}"${node.source ? ` (line ${node.source.line} of ${node.source.file})` : ''}`;
      const bytes = entries.get(entryName);
      if (!bytes) throw new WeightError(`${binFile}: no entry "${entryName}" for attribute @${key} of ${where}`);
      const count = numel(weight.shape);
      const elementBytes = DTYPE_BYTES[weight.dtype];
      const expected = count * elementBytes;
      if (bytes.byteLength !== expected) {
        throw new WeightError(
          `${binFile}: entry "${entryName}" holds ${bytes.byteLength} bytes, but @${key}=${formatShape(weight.shape)}${weight.dtype} ` +
          `of ${where} needs ${count} x ${elementBytes} = ${expected}`,
        );
      }
      // Typed arrays need aligned offsets; fflate's entries start at offset 0 of their own buffer.
      const aligned = bytes.byteOffset % elementBytes === 0 ? bytes : bytes.slice();
      weight.data = viewAs(weight.dtype, aligned.buffer, aligned.byteOffset, count);
    }
  }
}

/** A stored (uncompressed) zip holding every attribute that has data, entries in node order. */
export function writePnnxBin(graph: Graph): Uint8Array {
  const files: Zippable = {};
  for (const node of graph.nodes) {
    for (const [key, weight] of [...node.weights].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!weight.data) continue;
      const d = weight.data;
      files[`${node.name}.${key}`] = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    }
  }
  // A fixed timestamp keeps the archive byte-for-byte reproducible (init-weights --seed).
  return zipSync(files, { level: 0, mtime: new Date(1980, 0, 1) });
}
