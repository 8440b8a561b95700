/**
 * The worker threads' code (`workerBundle.ts`): a check's recipe gets a bundle of its own in the
 * temporary directory, made once per process; a recipe module that cannot be bundled falls back
 * to the TypeScript loader's entry, and a search on that entry still runs its workers (and
 * reports the error of one that cannot load its recipe); bundles unused for a week are swept.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { exploreAsync } from '../../src/engine/index.ts';
import {
  bundleLifetimeMs,
  entrySource,
  loaderEntry,
  sweepBundles,
  workerEntry,
} from '../../src/engine/workerBundle.ts';

const checkModule = new URL('../../src/checker/check.ts', import.meta.url).href;

describe('the worker bundle', () => {
  it('bundles a check’s recipe into one module in the temporary directory, once', async () => {
    const recipe = { module: checkModule, name: 'workerRun', arg: null };
    const entry = await workerEntry(recipe);
    expect(entry.protocol).toBe('file:');
    expect(dirname(fileURLToPath(entry))).toBe(tmpdir());
    expect(fileURLToPath(entry)).toMatch(/kvcheck-worker-[0-9a-f]{16}\.mjs$/);
    const code = readFileSync(entry, 'utf8');
    // One file: nothing is imported but Node's own modules.
    expect(code.match(/^import .* from "[^"]+";$/gm)?.length).toBeGreaterThan(0);
    expect(code).not.toMatch(/^import .* from "(?!node:)[^"]+";$/m);
    expect(code).toContain('function workerRun(');
    expect(workerEntry({ ...recipe, name: 'other' })).toBe(workerEntry(recipe));
    expect(await workerEntry(recipe)).toBe(entry);
  }, 60_000);

  it('makes the same bundle whatever directory the process runs in', async () => {
    const recipe = { module: checkModule, name: 'workerRun', arg: null };
    const here = (await workerEntry(recipe)).href;
    const dir = mkdtempSync(join(tmpdir(), 'kvcheck-cwd-'));
    try {
      const bundler = new URL('../../src/engine/workerBundle.ts', import.meta.url).href;
      const script = join(dir, 'entry.mts');
      writeFileSync(
        script,
        `import { workerEntry } from ${JSON.stringify(bundler)};\n` +
          `const e = await workerEntry(${JSON.stringify(recipe)});\nconsole.log(e.href);\n`,
      );
      const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
      const there = execFileSync(tsx, [script], { cwd: dir, encoding: 'utf8' }).trim();
      expect(there).toBe(here);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('makes the bundle again when its file was removed meanwhile', async () => {
    // A module of its own, so that no other test's workers load the file removed here.
    const module = new URL('../../src/numbers.ts', import.meta.url).href;
    const recipe = { module, name: 'unused', arg: null };
    const entry = await workerEntry(recipe);
    expect(entry).not.toBe(loaderEntry);
    rmSync(entry);
    const again = await workerEntry(recipe);
    expect(again.href).toBe(entry.href);
    expect(readFileSync(again, 'utf8')).toContain('function serve(');
  }, 60_000);

  it('sweeps the bundles, whole or half written, untouched for longer than their lifetime', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kvcheck-sweep-'));
    try {
      const now = Date.now();
      const files = {
        old: 'kvcheck-worker-0123456789abcdef.mjs',
        oldAside: 'kvcheck-worker-0123456789abcdef.mjs.42.0.tmp',
        fresh: 'kvcheck-worker-fedcba9876543210.mjs',
        notOurs: 'kvcheck-worker-notahash.mjs',
        other: 'report.html',
      };
      for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x');
      const longAgo = new Date(now - bundleLifetimeMs - 60_000);
      for (const name of [files.old, files.oldAside, files.notOurs, files.other]) {
        utimesSync(join(dir, name), longAgo, longAgo);
      }
      expect(sweepBundles(dir, now).sort()).toEqual([files.old, files.oldAside].sort());
      expect(readdirSync(dir).sort()).toEqual([files.fresh, files.notOurs, files.other].sort());
      expect(sweepBundles(join(dir, 'missing'), now)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves the bundled recipe module and refuses any other', () => {
    const source = entrySource(checkModule);
    expect(source).toContain(JSON.stringify(fileURLToPath(checkModule)));
    expect(source).toContain('serve(async (module) =>');
    expect(source).toContain("', not ' + module");
  });

  it.each([
    ['a file that does not exist', new URL('./no-such-recipe.ts', import.meta.url).href],
    ['a module that is not a file', 'data:text/javascript,export const workerRun = 1;'],
  ])('falls back to the TypeScript loader for %s', async (_what, module) => {
    expect(await workerEntry({ module, name: 'workerRun', arg: null })).toBe(loaderEntry);
  });

  it('runs workers on the fallback entry, which reports a recipe it cannot load', async () => {
    const module = new URL('./no-such-recipe.ts', import.meta.url).href;
    const run = exploreAsync(createServingMachine(incident, variantNamed('fixed')), {
      events: servingEvents(incident.requests.map((r) => r.id)),
      workers: { count: 2, recipe: { module, name: 'workerRun', arg: null }, from: 8, chunk: 16 },
    });
    await expect(run).rejects.toThrow(/no-such-recipe/);
  }, 60_000);
});
