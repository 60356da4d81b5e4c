// Where and with what a benchmark ran: date, CPU model and cores, load, Node and V8, package versions.

import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1]!.trim();
  } catch {
    // Not Linux: os.cpus() names the model too.
  }
  return cpus()[0]?.model ?? 'unknown CPU';
}

function version(pkg: string): string {
  const path = pkg === 'flowinfer' ? '../../package.json' : `../../node_modules/${pkg}/package.json`;
  return (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { version: string }).version;
}

export interface Machine {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly load: string;
  readonly node: string;
  readonly v8: string;
  readonly packages: string;
}

export function describeMachine(): Machine {
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpu: cpuModel(),
    cores: cpus().length,
    load: loadavg().map((l) => l.toFixed(2)).join(' '),
    node: process.version,
    v8: process.versions.v8,
    packages: ['flowinfer', 'onnxruntime-node', 'onnxruntime-web'].map((p) => `${p} ${version(p)}`).join(', '),
  };
}
