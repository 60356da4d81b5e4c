// The pass infrastructure, in the manner of TVM Relay's: a pass has a name, the lowest optimisation
// level it runs at and the passes it requires; a PassContext holds the level, the passes disabled by
// name and a trace switch. Passes rewrite the graph in place and say what they changed.

import type { OpRegistry } from '../../ops/registry.ts';
import type { Graph } from '../graph.ts';

export type OptLevel = 0 | 1 | 2 | 3;

export interface PassContext {
  readonly level: OptLevel;
  /** Pass names not to run. */
  readonly disabled: ReadonlySet<string>;
  /** Print each pass's changes to stderr as it runs. */
  readonly trace: boolean;
  readonly registry: OpRegistry;
}

export interface PassChange {
  /** What happened, naming the nodes: `folded nn.BatchNorm2d "bn1" into nn.Conv2d "conv1"`. */
  readonly description: string;
}

export interface Pass {
  readonly name: string;
  /** Runs at this optimisation level and above. */
  readonly minLevel: OptLevel;
  /** Passes that must run before this one (when they are enabled). */
  readonly requires?: readonly string[];
  /** Rewrites the graph; returns what it changed (empty: nothing). */
  run(graph: Graph, ctx: PassContext): PassChange[];
}

/** One pass's effect, for `flowinfer inspect --passes`. */
export interface PassReport {
  readonly pass: string;
  readonly nodesBefore: number;
  readonly nodesAfter: number;
  readonly changes: readonly PassChange[];
}
