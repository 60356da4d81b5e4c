// `--profile`: worker time per node summed over every run of a stream (from model.metrics$ nodeMs), as a
// table sorted by each node's share of the total. On the fast engine a node's time is its tiles' time
// summed over worker threads, so the total can exceed the wall time on several threads.

import type { FrameMetrics } from '../stream/types.ts';
import { table } from './format.ts';

interface NodeTotal {
  readonly type: string;
  ms: number;
}

export class NodeProfile {
  private readonly nodes = new Map<string, NodeTotal>();
  /** Runs recorded (a run is one frame, or one batch of frames). */
  runs = 0;

  add(nodeMs: FrameMetrics['nodeMs']): void {
    this.runs++;
    for (const { name, type, ms } of nodeMs) {
      const total = this.nodes.get(name);
      if (total) total.ms += ms;
      else this.nodes.set(name, { type, ms });
    }
  }

  /** Kernel time of every node over every run, in ms. */
  get totalMs(): number {
    let sum = 0;
    for (const n of this.nodes.values()) sum += n.ms;
    return sum;
  }

  /** node, type, total ms, ms per run, share; largest share first. */
  table(): string {
    const total = this.totalMs;
    if (this.runs === 0 || total === 0) return 'profile: no node times recorded';
    const rows = [...this.nodes].sort((a, b) => b[1].ms - a[1].ms).map(([name, n]) => [
      name, n.type, n.ms.toFixed(1), (n.ms / this.runs).toFixed(3), `${((100 * n.ms) / total).toFixed(1)} %`,
    ]);
    const head = `profile: ${total.toFixed(1)} ms of node time over ${this.runs} run${this.runs === 1 ? '' : 's'} (${(total / this.runs).toFixed(2)} ms a run), ${this.nodes.size} nodes`;
    return `${head}\n${table(['node', 'type', 'total ms', 'ms/run', 'share'], rows, [2, 3, 4])}`;
  }
}
