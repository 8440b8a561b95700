#!/usr/bin/env node
// kvcheck ships as TypeScript. A run loads the command line's bundle (`src/cli/cliBundle.ts`)
// when its record says it was made from the source files as they are now, and otherwise loads
// the sources through the TypeScript loader and then makes the bundle for the runs after.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * The URL of the bundle, when the cache directory's record (format 1, `BundleRecord`) is of
 * this root and every source file it lists has its recorded modification time and size; else
 * null. The directory is chosen as `cacheDirectory` does.
 */
function freshBundle() {
  const dir = process.env.KVCHECK_CACHE_DIR || join(root, 'node_modules', '.cache', 'kvcheck');
  try {
    const record = JSON.parse(readFileSync(join(dir, 'cli.json'), 'utf8'));
    if (record.format !== 1 || record.root !== root) return null;
    for (const [path, mtimeMs, size] of record.inputs) {
      const stat = statSync(path);
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return null;
    }
    return pathToFileURL(join(dir, record.bundle)).href;
  } catch {
    return null;
  }
}

// A closed pipe (`kvcheck check | head`) drops the rest of the output; the exit code is still
// the verdict's.
process.stdout.on('error', (e) => {
  if (e.code !== 'EPIPE') throw e;
});
const bundle = freshBundle();
let main = null;
if (bundle !== null) {
  // Stacks name the source files, through the bundle's source map.
  process.setSourceMapsEnabled(true);
  // A bundle that cannot be loaded (removed meanwhile, say) is as good as none.
  main = await import(bundle).then(
    (m) => m.main,
    () => null,
  );
}
const bundled = main !== null;
if (!bundled) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
if (!bundled) {
  const { makeCliBundle } = await import('../src/cli/cliBundle.ts');
  // Best effort: without a bundle, the next run loads the sources again.
  await makeCliBundle().catch(() => null);
}
