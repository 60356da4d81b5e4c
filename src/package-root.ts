// The package's root folder, found from this module's location by walking up to flowinfer's package.json,
// so that files beside the sources (build/kernels.wasm, src/workers/worker-entry.mjs) are found the same
// whether this module runs from src/ through tsx or from a bundle in build/.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'flowinfer') return dir;
    if (dirname(dir) === dir) throw new Error(`flowinfer's package.json not found above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, from its root. */
export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
