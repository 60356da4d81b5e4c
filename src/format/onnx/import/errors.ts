// Import failures. Every node the importer cannot translate (an operator it does not know, or attributes it
// cannot express) is collected over the whole model and reported in one OnnxImportError naming each node,
// its op type and the opset, so that a user sees every blocker at once, at load.

import { FlowinferError } from '../../../errors.ts';

/** One ONNX node the importer cannot translate, and why. */
export interface ImportProblem {
  readonly node: string;
  readonly opType: string;
  readonly reason: string;
}

export class OnnxImportError extends FlowinferError {
  override name = 'OnnxImportError';
  constructor(readonly file: string, readonly opset: number, readonly problems: readonly ImportProblem[], readonly unchecked = 0) {
    const shown = problems.slice(0, 40).map((p) => `  ${p.opType} node "${p.node}": ${p.reason}`);
    if (problems.length > shown.length) shown.push(`  ... and ${problems.length - shown.length} more`);
    // A node whose input comes from a failed node has no input to translate against.
    if (unchecked) shown.push(`  (${unchecked} node${unchecked === 1 ? '' : 's'} fed by these were not checked)`);
    const count = `${problems.length} node${problems.length === 1 ? '' : 's'}`;
    super(`cannot import ${file} (ONNX opset ${opset}): ${count} cannot be translated:\n${shown.join('\n')}`);
  }
}

/** Thrown by a converter when a node's op or attributes have no flowinfer form; collected by the importer. */
export class Unsupported extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A model-level problem (bad file, unknown opset, unsupported input type): not tied to one node. */
export class OnnxModelError extends FlowinferError {
  override name = 'OnnxModelError';
}
