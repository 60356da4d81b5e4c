// The ../shared folder beside the checkout (CI has it; a fresh clone alone does not).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED = fileURLToPath(new URL('../../../shared', import.meta.url));
export const HAS_SHARED = existsSync(join(SHARED, 'models')) || existsSync(join(SHARED, 'reference'));
export const SKIP_SHARED = HAS_SHARED ? false : `../shared is absent (expected at ${SHARED}); these tests read its models`;

/** Every .pnnx.param file under ../shared, sorted. */
export function sharedParamFiles(): string[] {
  if (!HAS_SHARED) return [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = join(dir, e.name);
      return e.isDirectory() ? walk(p) : e.name.endsWith('.pnnx.param') ? [p] : [];
    });
  return walk(SHARED).sort();
}

export const topology = (name: string) => join(SHARED, 'models', 'topologies', name);
export const kuiper = (rel: string) => join(SHARED, 'reference', 'kuiper', rel);
