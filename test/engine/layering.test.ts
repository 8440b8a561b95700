/**
 * The engine's layering, read from the source files. The generic engine (`src/engine`) imports
 * nothing of kvcheck outside itself (no machines, invariants, scenarios, checker, ...). Every
 * module outside it (tests aside) reaches the engine only through `src/engine/index.ts`, its
 * documented public surface. One module, `src/engine/xstateInternals.ts`, reads XState's
 * internal objects. Each rule is first shown to catch a breach, so a pass is not vacuous.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const engineDir = 'src/engine';
const engineIndex = 'src/engine/index.ts';
/** Source folders of kvcheck; tests may reach engine internals. */
const sourceDirs = ['src', 'machines', 'invariants', 'scenarios', 'bench', 'bin'];

/** A relative import of one source file, resolved to a repository path. */
interface Import {
  readonly from: string;
  readonly to: string;
}

/** Static and dynamic import and re-export specifiers of `source`, in order. */
function specifiers(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
  return [...source.matchAll(pattern)].map((m) => m[1] as string);
}

/** The relative imports of the file `path` (repository-relative) whose text is `source`. */
function importsOf(path: string, source: string): Import[] {
  return specifiers(source)
    .filter((s) => s.startsWith('.'))
    .map((s) => ({ from: path, to: join(dirname(path), s) }));
}

const inEngine = (path: string) => path.startsWith(`${engineDir}/`);

/** Imports that break the layering, as `from -> to` lines. */
function layeringViolations(files: ReadonlyMap<string, string>): string[] {
  const bad: string[] = [];
  for (const [path, source] of files) {
    for (const { from, to } of importsOf(path, source)) {
      const engineReachesOut = inEngine(from) && !inEngine(to);
      const bypassesIndex = !inEngine(from) && inEngine(to) && to !== engineIndex;
      if (engineReachesOut || bypassesIndex) bad.push(`${from} -> ${to}`);
    }
  }
  return bad;
}

const xstateReader = 'src/engine/xstateInternals.ts';

/** Marks of code that reads XState's internals: private fields, guard checks, untyped casts. */
const internalReads = [/\b_nodes\b/, /\.idMap\b/, /\.check\b/, /\bas any\b/, /:\s*any\b/];

/** `source` without its comments, so that prose naming an internal does not count. */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** Files other than the one XState reader whose code reads XState internals. */
function internalReaders(files: ReadonlyMap<string, string>): string[] {
  return [...files]
    .filter(
      ([path, source]) =>
        path !== xstateReader && internalReads.some((r) => r.test(codeOf(source))),
    )
    .map(([path]) => path);
}

/** Every `.ts` and `.js` file of kvcheck's own source folders, by repository path. */
function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of sourceDirs) {
    const entries = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' });
    for (const entry of entries) {
      if (!/\.(ts|js)$/.test(entry)) continue;
      const path = relative(root, join(root, dir, entry))
        .split('\\')
        .join('/');
      files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  }
  return files;
}

describe('engine layering', () => {
  it('reads the import lines it must judge', () => {
    const files = new Map([
      ['src/engine/explore.ts', "import { a } from '../../machines/events.ts';"],
      ['src/engine/search.ts', "export { b } from '../checker/outcome.ts';"],
      ['src/simulate/stepper.ts', "import { c } from '../engine/configView.ts';"],
      ['bench/engine.ts', "const d = await import('../src/engine/types.ts');"],
      ['src/checker/ok.ts', "import { e } from '../engine/index.ts';\nimport 'xstate';"],
      ['src/engine/ok.ts', "import type { f } from './types.ts';\nimport { g } from 'xstate';"],
    ]);
    expect(layeringViolations(files)).toEqual([
      'src/engine/explore.ts -> machines/events.ts',
      'src/engine/search.ts -> src/checker/outcome.ts',
      'src/simulate/stepper.ts -> src/engine/configView.ts',
      'bench/engine.ts -> src/engine/types.ts',
    ]);
  });

  it('tells code that reads XState internals from prose about it', () => {
    const files = new Map([
      ['src/paths/guards.ts', 'const checkOf = (g: unknown) => (g as GuardShape).check;'],
      ['src/checker/adapter.ts', 'const nodes = (snapshot as any).value;'],
      ['src/engine/configView.ts', "/** Like XState's `_nodes`. */\n// reads .check\nconst x = 1;"],
      [xstateReader, 'const n = (s as any)._nodes;'],
    ]);
    expect(internalReaders(files)).toEqual(['src/paths/guards.ts', 'src/checker/adapter.ts']);
  });

  it('reads XState internals in src/engine/xstateInternals.ts only', () => {
    expect(internalReaders(sourceFiles())).toEqual([]);
  });

  it('keeps src/engine free of kvcheck modules outside it', () => {
    const files = sourceFiles();
    expect([...files.keys()].filter(inEngine)).toContain(engineIndex);
    const out = layeringViolations(files).filter((line) => inEngine(line));
    expect(out).toEqual([]);
  });

  it('lets modules outside src/engine (tests aside) import only src/engine/index.ts', () => {
    const out = layeringViolations(sourceFiles()).filter((line) => !inEngine(line));
    expect(out).toEqual([]);
  });
});
