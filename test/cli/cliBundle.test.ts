/**
 * The command line's bundle (`src/cli/cliBundle.ts`): what it is made from, and that
 * `bin/kvcheck.js` loads it exactly when its record matches the source files on disk, and the
 * sources through the TypeScript loader otherwise. Each run here has a cache directory of its
 * own (`KVCHECK_CACHE_DIR`); the source files are never touched, only the records.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BundleRecord,
  bundleFormat,
  cacheDirectory,
  makeCliBundle,
  recordName,
} from '../../src/cli/cliBundle.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What a bundle marked by `mark` prints on stderr when it is loaded. */
const marker = 'loaded from the marked bundle';

function kvcheck(cache: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['bin/kvcheck.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', KVCHECK_CACHE_DIR: cache },
  });
}

function readRecord(cache: string): BundleRecord {
  return JSON.parse(readFileSync(join(cache, recordName), 'utf8')) as BundleRecord;
}

/** Makes the recorded bundle print `marker` when loaded, so that a run shows which it loaded. */
function mark(cache: string): void {
  appendFileSync(
    join(cache, readRecord(cache).bundle),
    `\nconsole.error(${JSON.stringify(marker)});\n`,
  );
}

/** A deterministic command: one request's lifecycle graph, as DOT. */
const graph = ['state-space', '--scenario', 'incident', '--variant', 'fixed', '--project', 'b1'];

let dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kvcheck-cli-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('makeCliBundle', () => {
  it('bundles the command line and records every source file it read, as it is on disk', async () => {
    const dir = freshDir();
    const record = await makeCliBundle(root, dir);
    expect(record).not.toBeNull();
    if (record === null) return;
    expect(record.format).toBe(bundleFormat);
    expect(record.root).toBe(root);
    expect(record.bundle).toMatch(/^cli-[0-9a-f]{16}\.mjs$/);
    expect(readRecord(dir)).toEqual(record);
    const paths = record.inputs.map(([path]) => path);
    for (const own of ['src/cli/main.ts', 'src/engine/search.ts', 'machines/layout.ts']) {
      expect(paths).toContain(join(root, own));
    }
    // Packages stay outside: only kvcheck's own files are inputs, and the files that say
    // which packages are installed.
    expect(paths.filter((p) => p.includes('node_modules'))).toEqual([]);
    expect(paths.slice(-2)).toEqual([join(root, 'package.json'), join(root, 'package-lock.json')]);
    for (const [path, mtimeMs, size] of record.inputs) {
      const stat = statSync(path);
      expect([path, stat.mtimeMs, stat.size]).toEqual([path, mtimeMs, size]);
    }
    // Every module's own URL is written in, so that files beside a module are found.
    const code = readFileSync(join(dir, record.bundle), 'utf8');
    expect(code).not.toContain('import.meta.url');
    expect(code).toContain(JSON.stringify(pathToFileURL(join(root, 'src/cli/main.ts')).href));
    expect(readdirSync(dir).sort()).toEqual([record.bundle, recordName].sort());
  });

  it('removes earlier bundles and old files left aside, and keeps what is not its own', async () => {
    const dir = freshDir();
    const old = Date.now() / 1000 - 3600;
    const leftovers = ['cli-0123456789abcdef.mjs', 'cli.json.4242.tmp', 'cli-x.mjs.4242.tmp'];
    for (const name of leftovers) {
      writeFileSync(join(dir, name), '');
      utimesSync(join(dir, name), old, old);
    }
    // Being written by another run now, and a file of someone else's.
    writeFileSync(join(dir, 'cli.json.4343.tmp'), '');
    writeFileSync(join(dir, 'notes.txt'), '');
    const record = await makeCliBundle(root, dir);
    expect(readdirSync(dir).sort()).toEqual(
      [record?.bundle, recordName, 'cli.json.4343.tmp', 'notes.txt'].sort(),
    );
  });

  it('rejects a directory it cannot make, before building', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'file'), '');
    await expect(makeCliBundle(root, join(dir, 'file', 'cache'))).rejects.toThrow(/ENOTDIR/);
  });

  it('keeps its bundle in KVCHECK_CACHE_DIR, or under node_modules/.cache', () => {
    expect(cacheDirectory('/r/', { KVCHECK_CACHE_DIR: '/elsewhere' })).toBe('/elsewhere');
    expect(cacheDirectory('/r/', { KVCHECK_CACHE_DIR: '' })).toBe('/r/node_modules/.cache/kvcheck');
    expect(cacheDirectory('/r/', {})).toBe('/r/node_modules/.cache/kvcheck');
  });
});

describe('bin/kvcheck.js with a bundle', () => {
  it('makes the bundle after a run without one, and loads it while the sources match', () => {
    const cache = freshDir();
    const first = kvcheck(cache, ...graph);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^digraph/);
    expect(existsSync(join(cache, recordName))).toBe(true);
    mark(cache);
    const second = kvcheck(cache, ...graph);
    expect(second.status).toBe(0);
    expect(second.stderr).toContain(marker);
    expect(second.stdout).toBe(first.stdout);
  });

  it('loads the sources when a recorded file differs, is gone, or the record is not its own', () => {
    const cache = freshDir();
    expect(kvcheck(cache, '--version').status).toBe(0);
    mark(cache);
    const record = readRecord(cache);
    const [path, mtimeMs, size] = record.inputs[0] ?? ['', 0, 0];
    const stale: BundleRecord[] = [
      { ...record, inputs: [[path, mtimeMs - 1, size], ...record.inputs.slice(1)] },
      { ...record, inputs: [[path, mtimeMs, size + 1], ...record.inputs.slice(1)] },
      { ...record, inputs: [...record.inputs, [join(root, 'src/gone.ts'), 0, 0]] },
      { ...record, root: '/another/kvcheck/' },
      { ...record, format: 2 as typeof bundleFormat },
    ];
    for (const wrong of stale) {
      writeFileSync(join(cache, recordName), JSON.stringify(wrong));
      const r = kvcheck(cache, ...graph);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^digraph/);
      expect(r.stderr).not.toContain(marker);
      // The run made the bundle again, from the files as they are.
      expect(readRecord(cache).inputs).toEqual(record.inputs);
      mark(cache);
    }
  });

  it('loads the sources when the recorded bundle cannot be loaded', () => {
    const cache = freshDir();
    expect(kvcheck(cache, '--version').status).toBe(0);
    unlinkSync(join(cache, readRecord(cache).bundle));
    const r = kvcheck(cache, ...graph);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^digraph/);
    expect(existsSync(join(cache, readRecord(cache).bundle))).toBe(true);
  });
});
