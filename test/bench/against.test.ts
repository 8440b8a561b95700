/**
 * The paired bench (`npm run bench -- --against DIR`): its arguments are refused with one line
 * naming what is accepted, a directory that is not a checkout is named with the file it lacks,
 * and a checkout's runner explores the row it is given with that checkout's own engine (the
 * manifest's counts, bare and with every property, a state bound kept, and symmetry's count of
 * representatives).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { againstArg, loadCheckout, pairsArg } from '../../bench/against.ts';
import { paired, quartiles, ratioCell } from '../../bench/engine.ts';
import { UsageError } from '../../src/cli/usageError.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the paired bench', () => {
  it('takes --against DIR and --pairs N, and refuses what it cannot use', () => {
    expect(againstArg(['--quick'])).toBeNull();
    expect(againstArg(['--against', '/tmp/base'])).toBe('/tmp/base');
    expect(() => againstArg(['--against'])).toThrow(
      '--against: give the directory of another kvcheck checkout',
    );
    expect(() => againstArg(['--against', '--pairs'])).toThrow(/--against: give the directory/);
    expect(pairsArg([])).toBe(10);
    expect(pairsArg(['--pairs', '3'])).toBe(3);
    for (const bad of ['0', '1.5', 'ten', '1001', undefined]) {
      const argv = bad === undefined ? ['--pairs'] : ['--pairs', bad];
      expect(() => pairsArg(argv)).toThrow(/^--pairs: must be a whole number from 1 to 1000/);
      expect(() => pairsArg(argv)).toThrow(UsageError);
    }
  });

  it("gives the middle half of the pairs' ratios beside their median", () => {
    expect(quartiles([7, 1, 10, 4, 2, 9, 3, 6, 8, 5])).toEqual([3, 8]);
    expect(quartiles([1, 2, 3, 4, 5])).toEqual([2, 4]);
    expect(quartiles([1.5])).toEqual([1.5, 1.5]);
    expect(quartiles([]).every(Number.isNaN)).toBe(true);
    expect(ratioCell(1.123, [0.987, 1.2])).toBe('1.12x (0.99-1.20)');
    const sum = (k: number) => () => {
      let s = 0;
      for (let i = 0; i < k; i++) s += Math.sqrt(i);
      return s;
    };
    const out = paired(9, sum(20_000), sum(40_000));
    expect(out.spread[0]).toBeLessThanOrEqual(out.ratio);
    expect(out.ratio).toBeLessThanOrEqual(out.spread[1]);
    expect(out.spread[0]).toBeGreaterThan(0);
  });

  it('ends a bad argument with one line on stderr and exit code 2, before any run', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'bench/index.ts', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    for (const [args, line] of [
      [['--pairs', '3'], 'error: --pairs: only with --against'],
      [['--against', '/nonexistent-checkout'], /^error: --against: \/nonexistent-checkout is not/],
      [
        ['--against', root, '--pairs', '0'],
        /^error: --pairs: must be a whole number from 1 to 1000/,
      ],
    ] as const) {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    }
  });

  it('names the file a directory lacks to be a checkout', async () => {
    await expect(loadCheckout('/nonexistent-checkout')).rejects.toThrow(
      '--against: /nonexistent-checkout is not a kvcheck checkout (no machines/servingMachine.ts)',
    );
  });

  it("runs a row on the checkout's own engine", async () => {
    const run = await loadCheckout(root);
    const row = { scenario: 'incident', variant: 'incident-2026' };
    // The manifest's counts for incident × incident-2026, bare and with every property.
    expect(run(row, false)()).toEqual({ states: 2195, transitions: 4244 });
    expect(run(row, true)()).toEqual({ states: 2195, transitions: 4244 });
    expect(run({ scenario: 'incident-faults', variant: 'incident-2026' }, false)().states).toBe(
      8314,
    );
    expect(run({ scenario: 'incident-3', variant: 'fixed', maxStates: 500 }, true)().states).toBe(
      500,
    );
    // With symmetry: the representatives of incident-3 × fixed (93,213 states without).
    const symmetric = { scenario: 'incident-3', variant: 'fixed', symmetry: true };
    expect(run(symmetric, false)().states).toBe(46_634);
    const large = { scenario: 'incident-large', variant: 'fixed', maxStates: 300, symmetry: true };
    expect(run(large, true)().states).toBe(300);
  });
});
