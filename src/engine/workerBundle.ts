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
 * so that processes running the same code share the file. Making one also removes the bundles
 * nobody has made or reused for a week (`sweepBundles`), so that the temporary directory does
 * not collect one file per version of kvcheck ever run.
 *
 * The bundle carries a source map (inline, without the sources' text), and its worker turns
 * source maps on before it loads it (`startWorker`), so that the stack of an error on a
 * worker (a guard that throws, say) names kvcheck's and the machine's own files and lines, as
 * on the main thread, not the bundle's.
 *
 * When a bundle cannot be made (a recipe module that is not a file, esbuild missing, a
 * temporary directory that cannot be written), the workers load through the TypeScript
 * loader instead: the same code, only slower to start. The search's results do not depend on
 * which.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import type { BuildOptions, Metafile } from 'esbuild';
import type { WorkerRecipe } from './types.ts';

/** The worker entry that loads through the TypeScript loader (see the module doc). */
export const loaderEntry = new URL('./parallelWorker.js', import.meta.url);

/**
 * kvcheck's root directory: the bundle names its files relative to it (in its comments and
 * source map), so that its contents, and with them its name, do not depend on the directory
 * a process runs in.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

/** How long a bundle nobody made or reused is kept: a week. */
export const bundleLifetimeMs = 7 * 24 * 3600 * 1000;

/** A bundle's file name: its contents' hash, 16 hex digits (`.tmp` while written aside). */
const bundleName = /^kvcheck-worker-[0-9a-f]{16}\.mjs(\.\d+\.\d+\.tmp)?$/;

/** A recipe module's entry, and its bundle's file once written (null before, or without one). */
interface Made {
  readonly entry: Promise<URL>;
  file: URL | null;
}

/** The entries made in this process, by recipe module. */
const made = new Map<string, Made>();

/**
 * The URL of the module a worker thread of `recipe` runs: its bundle, made once per process
 * and recipe module (again if its file has since been removed), or `loaderEntry` when it
 * cannot be made. Never rejects.
 */
export function workerEntry(recipe: WorkerRecipe): Promise<URL> {
  const module = recipe.module;
  const known = made.get(module);
  if (known !== undefined && (known.file === null || existsSync(known.file))) return known.entry;
  const fresh: Made = {
    entry: bundle(module).then(
      (url) => {
        fresh.file = url;
        return url;
      },
      () => loaderEntry,
    ),
    file: null,
  };
  made.set(module, fresh);
  return fresh.entry;
}

/**
 * Removes from `dir` the worker bundles (and bundles left half written) last modified more
 * than `lifetimeMs` before `now`: a bundle is touched whenever a process makes or reuses it,
 * so these belong to versions of kvcheck not run for that long. Returns the names removed;
 * a file it cannot read or remove is left, silently (another process may be at it).
 */
export function sweepBundles(
  dir: string,
  now = Date.now(),
  lifetimeMs = bundleLifetimeMs,
): string[] {
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => bundleName.test(name));
  } catch {
    return removed;
  }
  for (const name of names) {
    try {
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs <= lifetimeMs) continue;
      unlinkSync(path);
      removed.push(name);
    } catch {
      // Removed or replaced meanwhile by another process: nothing to do.
    }
  }
  return removed;
}

/**
 * A worker thread running `entry` (a URL `workerEntry` gave). A bundle is loaded by a small
 * script that first turns source maps on for the thread (only a module loaded after that has
 * its map read), so that stacks name the bundled files; the loader entry is run as it is.
 */
export function startWorker(entry: URL): Worker {
  if (entry.href === loaderEntry.href) return new Worker(entry);
  const script = `process.setSourceMapsEnabled(true);\nimport(${JSON.stringify(entry.href)});`;
  return new Worker(script, { eval: true });
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

/**
 * One ES module for Node 20 of kvcheck's modules under `root`, as esbuild bundles it with
 * `options` (the entry, externals, plugins, `metafile`) on top of what every kvcheck bundle
 * shares: Node's own conditions for packages (without the `module` one esbuild adds by
 * default, so each package is the build Node itself loads for an `import`: `xstate`'s
 * CommonJS build behind `xstate.cjs.mjs`, not `xstate.esm.js`), and an inline source map
 * that maps back to the files as they are on disk (`sources` relative to `root`, which
 * `sourceRoot` names) without their text. Gives the module's text and esbuild's metafile
 * (with `options.metafile`). Rejects when esbuild fails or gives no output. esbuild is
 * imported here, on first use: only the main thread bundles, and nothing else loads it.
 */
export async function nodeBundle(
  root: string,
  options: BuildOptions,
): Promise<{ readonly code: string; readonly metafile: Metafile | undefined }> {
  const { build } = await import('esbuild');
  const out = await build({
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['node'],
    sourcemap: 'inline',
    sourcesContent: false,
    sourceRoot: pathToFileURL(root).href,
    write: false,
    logLevel: 'silent',
    ...options,
  });
  const code = out.outputFiles?.[0]?.text;
  if (code === undefined) throw new Error('esbuild produced no bundle');
  return { code, metafile: out.metafile };
}

/** A bundle's file name from its text: `prefix`, 16 hex digits of its SHA-256, `.mjs`. */
export function bundleFileName(prefix: string, code: string): string {
  return `${prefix}${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
}

/**
 * Writes `text` to `path` through a file beside it (`path`, the process and thread ids,
 * `.tmp`), renamed into place, so that another process never reads half a file.
 */
export function writeAside(path: string, text: string): void {
  const aside = `${path}.${process.pid}.${threadId}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, path);
}

async function bundle(recipeModule: string): Promise<URL> {
  const { code } = await nodeBundle(root, {
    stdin: { contents: entrySource(recipeModule), resolveDir: root, loader: 'js' },
    external: ['esbuild'],
  });
  const dir = tmpdir();
  const path = join(dir, bundleFileName('kvcheck-worker-', code));
  if (existsSync(path)) {
    // Reused: touched, so that a sweep sees it in use.
    const now = new Date();
    utimesSync(path, now, now);
  } else {
    writeAside(path, code);
  }
  sweepBundles(dir);
  return pathToFileURL(path);
}
