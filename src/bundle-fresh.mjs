// Whether a bundle made by scripts/build-bundles.mjs may stand in for the TypeScript sources: it exists
// and is newer than every .ts file under src/ (an edited source makes the entry points fall back to tsx
// until the bundles are rebuilt). FLOWINFER_BUNDLE=0 always says no.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const sources = fileURLToPath(new URL('.', import.meta.url));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The bundle's file URL when it is fresh, else undefined. `name` is a file in build/, e.g. 'cli.mjs'. */
export function freshBundle(name) {
  if (process.env.FLOWINFER_BUNDLE === '0') return undefined;
  const url = new URL(`../build/${name}`, import.meta.url);
  const path = fileURLToPath(url);
  return existsSync(path) && statSync(path).mtimeMs >= newestSource(sources) ? url.href : undefined;
}
