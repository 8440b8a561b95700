/**
 * The code a worker thread of the parallel search runs, as one ES module: `parallelWorker.ts`
 * and its recipe's module (`WorkerRecipe.module`) with everything they import, bundled by
 * esbuild into a file in the system's temporary directory.
 *
 * kvcheck ships as TypeScript. A worker that loads it through the TypeScript loader
 * (`parallelWorker.js`) resolves and compiles some hundred modules one request at a time over
 * the loader's own thread, about 0.9 s for two workers on two cores, while the main thread
 * searches the first levels on what CPU is left. One bundled file loads without the loader.
 * The bundle is made once per process and recipe module, while the main thread searches
 * (esbuild runs in a process of its own), and written under a name taken from its contents,
 * so that processes running the same code share the file.
 *
 * When a bundle cannot be made (a recipe module that is not a file, esbuild missing, a
 * temporary directory that cannot be written), the workers load through the TypeScript
 * loader instead: the same code, only slower to start. The search's results do not depend on
 * which.
 */
import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { WorkerRecipe } from './types.ts';

/** The worker entry that loads through the TypeScript loader (see the module doc). */
export const loaderEntry = new URL('./parallelWorker.js', import.meta.url);

const made = new Map<string, Promise<URL>>();

/**
 * The URL of the module a worker thread of `recipe` runs: its bundle, made once per process
 * and recipe module, or `loaderEntry` when it cannot be made. Never rejects.
 */
export function workerEntry(recipe: WorkerRecipe): Promise<URL> {
  let entry = made.get(recipe.module);
  if (entry === undefined) {
    entry = bundle(recipe.module).catch(() => loaderEntry);
    made.set(recipe.module, entry);
  }
  return entry;
}

/** The source of the bundle's entry: serves `recipeModule`, which it imports, to the worker. */
export function entrySource(recipeModule: string): string {
  const worker = fileURLToPath(new URL('./parallelWorker.ts', import.meta.url));
  const recipe = fileURLToPath(recipeModule);
  return [
    `import * as recipe from ${JSON.stringify(recipe)};`,
    `import { serve } from ${JSON.stringify(worker)};`,
    `const bundled = ${JSON.stringify(recipeModule)};`,
    'serve(async (module) => {',
    '  if (module === bundled) return recipe;',
    "  throw new Error('this worker bundles ' + bundled + ', not ' + module);",
    '});',
  ].join('\n');
}

async function bundle(recipeModule: string): Promise<URL> {
  // Imported here, and left out of the bundle: only the main thread bundles.
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: entrySource(recipeModule), resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['esbuild'],
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no bundle');
  const name = `kvcheck-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const path = join(tmpdir(), name);
  if (!existsSync(path)) {
    // Written aside and renamed, so that another process never loads half a file.
    const aside = `${path}.${process.pid}.${threadId}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, path);
  }
  return pathToFileURL(path);
}
