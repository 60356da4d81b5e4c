// The default pass sequence. Order matters: folding before fusion (a batch-norm must reach its
// convolution first), residual fusion before activation fusion (the ReLU after a residual add can
// then fuse into the convolution too), and dead code last.

import type { OpRegistry } from '../../ops/registry.ts';
import type { Graph } from '../graph.ts';
import type { InputShapes } from '../shapes.ts';
import { fuseActivations } from './activation-fusion.ts';
import { foldBatchNorms } from './batchnorm-fold.ts';
import { foldConstants } from './constant-fold.ts';
import { eliminateCommonSubexpressions } from './cse.ts';
import { eliminateDeadCode } from './dce.ts';
import { fuseElementwise } from './elementwise-fusion.ts';
import { removeIdentities } from './identity.ts';
import type { OptLevel, Pass, PassReport } from './pass.ts';
import { collapseReshapes } from './reshape-collapse.ts';
import { fuseResiduals } from './residual-fusion.ts';
import { runPasses } from './run.ts';

export const DEFAULT_PASSES: readonly Pass[] = [
  removeIdentities,
  eliminateDeadCode,
  collapseReshapes,
  foldConstants,
  eliminateCommonSubexpressions,
  foldBatchNorms,
  fuseResiduals,
  fuseActivations,
  fuseElementwise,
  { ...eliminateDeadCode, name: 'dead-code-final' },
];

export const DEFAULT_OPT_LEVEL: OptLevel = 3;

export interface OptimizeOptions {
  readonly level?: OptLevel;
  readonly disabled?: Iterable<string>;
  readonly trace?: boolean;
  readonly inputShapes?: InputShapes;
}

/** Runs the default passes on `graph` in place; returns what each pass did. */
export function optimizeGraph(graph: Graph, registry: OpRegistry, options: OptimizeOptions = {}): PassReport[] {
  const ctx = {
    level: options.level ?? DEFAULT_OPT_LEVEL,
    disabled: new Set(options.disabled ?? []),
    trace: options.trace ?? false,
    registry,
  };
  return runPasses(graph, DEFAULT_PASSES, ctx, options.inputShapes);
}

export type { OptLevel, Pass, PassContext, PassReport } from './pass.ts';
