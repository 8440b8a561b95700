/**
 * Every command shown in a `console` block of the README or of `docs/` runs, and prints what the
 * page shows (times and rates masked, `…` for lines left out), so no figure in the documentation
 * goes stale. Commands that take minutes are shown in `text` blocks instead, with the date and
 * commit of the run that printed them, and are not run here.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  consoleCommands,
  masked,
  matchesShown,
  type ShownCommand,
  shellWords,
} from './consoleBlocks.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pages = ['README.md', ...readdirSync(`${root}docs`).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const shown: ShownCommand[] = pages.flatMap((f) =>
  consoleCommands(f, readFileSync(`${root}${f}`, 'utf8')),
);

/** What `command` prints (stdout, then stderr), run from the repository's root. */
function run(command: string): string {
  const [npx, bin, ...args] = shellWords(command);
  if (npx !== 'npx' || bin !== 'kvcheck') throw new Error(`not a kvcheck command: ${command}`);
  const r = spawnSync(process.execPath, ['bin/kvcheck.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}

describe('the console blocks of the README and docs/', () => {
  it('include the README’s counterexample and the docs’ examples', () => {
    expect(shown.some((c) => c.file === 'README.md')).toBe(true);
    expect(new Set(shown.map((c) => c.file)).size).toBeGreaterThanOrEqual(5);
  });

  it.each(shown.map((c) => [`${c.file}:${c.line}`, c] as const))(
    '%s prints what it shows',
    (_where, c) => {
      const actual = masked(run(c.command));
      const expected = masked(c.output.join('\n'));
      if (!matchesShown(expected, actual)) {
        // The diff names the command and shows where the page and the output part.
        expect({ command: c.command, output: actual.join('\n') }).toEqual({
          command: c.command,
          output: expected.join('\n'),
        });
      }
    },
    120_000,
  );
});

describe('shellWords', () => {
  it('groups quoted words and refuses a quote that never closes', () => {
    expect(shellWords(`npx kvcheck list --json "a b" 'c d'`)).toEqual([
      'npx',
      'kvcheck',
      'list',
      '--json',
      'a b',
      'c d',
    ]);
    expect(() => shellWords('npx kvcheck check --config "bad.yaml')).toThrow(/unterminated quote/);
  });
});

describe('matchesShown', () => {
  it('lets … stand for any lines, and nothing else', () => {
    expect(matchesShown(['a', '…', 'd'], ['a', 'b', 'c', 'd'])).toBe(true);
    expect(matchesShown(['a', '…', 'd'], ['a', 'd'])).toBe(true);
    expect(matchesShown(['a', 'd'], ['a', 'b', 'd'])).toBe(false);
    expect(matchesShown(['a', '…'], ['b'])).toBe(false);
    expect(matchesShown(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
  });

  it('masks times and rates only', () => {
    expect(masked('200 runs, 5,200 steps, 740 ms; 334.5 runs/s; 18.6 s  \n\n')).toEqual([
      '200 runs, 5,200 steps, ⟨time⟩; ⟨rate⟩; ⟨time⟩',
    ]);
    expect(masked('  depth  runs\n  26      200')).toEqual(['  depth runs', '  26 200']);
  });
});
