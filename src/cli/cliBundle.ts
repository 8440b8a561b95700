/**
 * The command line's own bundle: `src/cli/main.ts` and every kvcheck module it imports, as one
 * ES module made by esbuild, which `bin/kvcheck.js` loads instead of the TypeScript sources
 * while none of them has changed since.
 *
 * kvcheck ships as TypeScript, compiled on load by the TypeScript loader, which resolves and
 * compiles some two hundred modules one request at a time: about half of a one-second
 * `kvcheck check`. The bundle loads as one file, without the loader. It is made after a run
 * that found none, or found it out of date, in a cache directory (`cacheDirectory`), beside a
 * record of what it was made from (`BundleRecord`): every source file's path, modification
 * time and size, and those of `package.json` and `package-lock.json`, which say what packages
 * are installed. The launcher compares those with the files on disk, and loads the sources
 * through the loader on any difference (a file edited, moved or removed), so an edit is never
 * run stale; the run after makes the bundle again.
 *
 * Packages stay outside the bundle and load as they would from the sources. Each source
 * file's `import.meta.url` is replaced by the file's own URL, so that what a module finds
 * beside itself (`package.json`, the worker thread's entry) is found from the bundle too. The
 * bundle carries a source map (inline, without the sources' text), so that the stack of an
 * unexpected error names the source files and lines.
 */
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { bundleFileName, nodeBundle, writeAside } from '../engine/index.ts';

/** The record's format; `bin/kvcheck.js` loads a bundle only from a record of this format. */
export const bundleFormat = 1;

/** The record's file name in the cache directory. */
export const recordName = 'cli.json';

/** What a bundle was made from (the cache directory's `cli.json`). */
export interface BundleRecord {
  readonly format: typeof bundleFormat;
  /** kvcheck's root directory, the sources' and the bundle's. */
  readonly root: string;
  /** The bundle's file name in the cache directory: `cli-` and 16 hex digits of its hash. */
  readonly bundle: string;
  /**
   * Each source file bundled, then `package.json` and `package-lock.json`: the absolute path,
   * modification time (ms) and size (bytes).
   */
  readonly inputs: readonly (readonly [string, number, number])[];
}

/** kvcheck's root directory. */
const kvcheckRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The directory the bundle is kept in: `KVCHECK_CACHE_DIR` when set (and not empty), else
 * `node_modules/.cache/kvcheck` under `root`. `bin/kvcheck.js` chooses it the same way.
 */
export function cacheDirectory(root = kvcheckRoot, env = process.env): string {
  const chosen = env.KVCHECK_CACHE_DIR;
  return chosen ? chosen : join(root, 'node_modules', '.cache', 'kvcheck');
}

const bundleName = /^cli-[0-9a-f]{16}\.mjs$/;

/** The files under `root` that say which packages are installed (see `makeCliBundle`). */
const lockfiles = ['package.json', 'package-lock.json'];

/**
 * Makes the bundle of `root`'s command line in `dir` and records what it was made from;
 * returns the record. Each source's time and size are taken before esbuild reads it, so a
 * source edited while the bundle is made is newer than its record says, and the next run
 * loads the sources. (Null, with nothing written, when an input that is not TypeScript is
 * newer than the build: the next run tries again.) Files are written aside and renamed, so
 * that a process running at the same time never loads half a file, and the record is renamed
 * into place last, so that it never names a bundle not yet written. Earlier bundles in `dir` are
 * removed, and so are files a run stopped while writing left aside, once ten minutes old.
 * Rejects when `dir` cannot be made or written (before building) or esbuild fails.
 */
export async function makeCliBundle(
  root = kvcheckRoot,
  dir = cacheDirectory(root),
): Promise<BundleRecord | null> {
  const started = Date.now();
  // A directory that cannot be written fails here, before the build's cost (a read-only
  // install would otherwise pay it on every run).
  mkdirSync(dir, { recursive: true });
  accessSync(dir, constants.W_OK);
  const read = new Map<string, Stats>();
  const { code, metafile } = await nodeBundle(root, {
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    metafile: true,
    plugins: [ownUrls(read), packagesByUrl],
  });
  const inputs: [string, number, number][] = [];
  const sources = Object.keys(metafile?.inputs ?? {}).map((p) =>
    isAbsolute(p) ? p : join(root, p),
  );
  // The packages the bundle imports by file are those installed now: a changed lockfile (or
  // package manifest) may mean other files, so it makes the bundle out of date too.
  const manifests = lockfiles.map((name) => join(root, name)).filter((p) => existsSync(p));
  for (const path of [...sources.sort(), ...manifests]) {
    // A source is stated before it is read (`ownUrls`): a change after the stat gives the
    // file a later time than the one recorded, and the next run loads the sources. Any other
    // input is stated now, and must not be newer than the build.
    const stat = read.get(path) ?? statSync(path);
    if (!read.has(path) && stat.mtimeMs >= started) return null;
    inputs.push([path, stat.mtimeMs, stat.size]);
  }
  const bundle = bundleFileName('cli-', code);
  const record: BundleRecord = { format: bundleFormat, root, bundle, inputs };
  writeAside(join(dir, bundle), code);
  writeAside(join(dir, recordName), `${JSON.stringify(record)}\n`);
  for (const name of readdirSync(dir)) {
    try {
      const path = join(dir, name);
      const old = bundleName.test(name) && name !== bundle;
      if (old || (name.endsWith('.tmp') && started - statSync(path).mtimeMs > asideLifetimeMs)) {
        unlinkSync(path);
      }
    } catch {
      // Removed meanwhile by another process.
    }
  }
  return record;
}

/**
 * How old a file written aside must be for a run to remove it: such a file is left only by a
 * run stopped while it wrote (another run may be writing one now).
 */
const asideLifetimeMs = 10 * 60 * 1000;

/**
 * Leaves packages out of the bundle, imported by the URL of the file they resolve to from
 * the importing source (as Node resolves them: the `import` conditions of their exports), so
 * that the bundle loads them from any directory. Node's built-in modules stay as they are.
 */
const packagesByUrl: Plugin = {
  name: 'packages-by-url',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === packagesByUrl || args.path.startsWith('node:')) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const found = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: packagesByUrl,
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: pathToFileURL(found.path).href, external: true };
    });
  },
};

/**
 * Replaces `import.meta.url` in each TypeScript source with the file's own URL, and keeps in
 * `read` each source's stat, taken before the source is read.
 */
function ownUrls(read: Map<string, Stats>): Plugin {
  return {
    name: 'own-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, ({ path }) => {
        read.set(path, statSync(path));
        return {
          contents: readFileSync(path, 'utf8').replaceAll(
            'import.meta.url',
            JSON.stringify(pathToFileURL(path).href),
          ),
          loader: 'ts',
        };
      });
    },
  };
}
