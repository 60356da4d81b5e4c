// One errors module: every error flowinfer raises names what it was reading and what it expected.

/** Base class of every error raised by flowinfer; `instanceof FlowinferError` catches them all. */
export class FlowinferError extends Error {
  override name = 'FlowinferError';
}

/** A place in a text file (1-based line and column). */
export interface TextLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A text that does not follow its grammar. The message reads
 * `model.pnnx.param:4:57: bad tuple: expected ',' or ')', found 'x'` followed by the line and a caret.
 */
export class ParseError extends FlowinferError {
  override name = 'ParseError';
  constructor(
    readonly location: TextLocation,
    readonly problem: string,
    readonly found: string,
    readonly expected: string,
    readonly sourceLine?: string,
  ) {
    super(formatParseMessage(location, problem, found, expected, sourceLine));
  }
}

function formatParseMessage(
  at: TextLocation,
  problem: string,
  found: string,
  expected: string,
  sourceLine: string | undefined,
): string {
  const head = `${at.file}:${at.line}:${at.column}: ${problem}: expected ${expected}, found ${found}`;
  if (sourceLine === undefined) return head;
  return `${head}\n${excerpt(sourceLine, at.column)}`;
}

/** The source line (shortened around the column if it is long) with a caret under the column. */
export function excerpt(line: string, column: number, width = 100): string {
  let start = 0;
  if (line.length > width) start = Math.max(0, Math.min(column - 1 - width / 2, line.length - width));
  const shown = line.slice(start, start + width);
  const prefix = start > 0 ? '...' : '';
  const suffix = start + width < line.length ? '...' : '';
  const caret = ' '.repeat(prefix.length + column - 1 - start) + '^';
  return `  ${prefix}${shown}${suffix}\n  ${caret}`;
}

/** Where a graph node came from, for messages: its index and the file line that declared it. */
export interface NodeRef {
  readonly type: string;
  readonly name: string;
  readonly index?: number;
  readonly source?: { readonly file: string; readonly line: number };
}

/** `nn.Conv2d node "conv1" (#1, line 4 of resnet18.pnnx.param)` */
export function describeNode(node: NodeRef): string {
  const where: string[] = [];
  if (node.index !== undefined) where.push(`#${node.index}`);
  if (node.source) where.push(`line ${node.source.line} of ${node.source.file}`);
  return `${node.type} node "${node.name}"${where.length ? ` (${where.join(', ')})` : ''}`;
}

/** A problem with one node: its params, weights, input shapes or its run. */
export class NodeError extends FlowinferError {
  override name = 'NodeError';
  constructor(
    readonly node: NodeRef,
    readonly problem: string,
  ) {
    super(`${describeNode(node)}: ${problem}`);
  }
}

/** A problem with the graph as a whole: dangling operands, cycles, no inputs or outputs. */
export class GraphError extends FlowinferError {
  override name = 'GraphError';
}

/** A model uses operator types the registry lacks; one error lists all of them. */
export class UnsupportedOpsError extends FlowinferError {
  override name = 'UnsupportedOpsError';
  constructor(readonly unsupported: ReadonlyMap<string, readonly string[]>) {
    const lines = [...unsupported].map(
      ([type, nodes]) => `  ${type}: ${nodes.slice(0, 5).map((n) => `"${n}"`).join(', ')}${nodes.length > 5 ? `, ... (${nodes.length} nodes)` : ''}`,
    );
    super(`unsupported operator type${unsupported.size > 1 ? 's' : ''}:\n${lines.join('\n')}`);
  }
}

/** A weight archive that is unreadable or does not match the graph. */
export class WeightError extends FlowinferError {
  override name = 'WeightError';
}

/** A caller passed something wrong to the API (an input of the wrong shape, an unknown option). */
export class UsageError extends FlowinferError {
  override name = 'UsageError';
}

/** A media file (image or video) that cannot be read or written; says which file and what the decoder said. */
export class MediaError extends FlowinferError {
  override name = 'MediaError';
}
