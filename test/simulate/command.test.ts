/**
 * `kvcheck simulate` in process: exit 1 on a violation, 3 when the walks find nothing, 2 with one
 * `error: …` line on bad input; the seed and a reproduce line are printed; `--seed` replays the
 * same walks; `--json` prints the Outcome with the simulation figures.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, usageError } from '../cli/runCli.ts';

const incidentArgs = ['simulate', '--scenario', 'incident', '--variant', 'incident-2026'];

/** The JSON Outcome without wall-clock figures. */
function stable(text: string): unknown {
  return JSON.parse(text, (key, value) =>
    key === 'ms' || key === 'runsPerSecond' || key === 'shrinkMs' ? 0 : value,
  );
}

describe('kvcheck simulate', () => {
  it('exits 1 on a violation and prints the seed, the depths, the shrunk trace and how to replay', async () => {
    const r = await run(
      ...incidentArgs,
      '--invariant',
      'noCrossTenantRead',
      '--runs',
      '60',
      '--seed',
      '1',
    );
    expect(r.code).toBe(1);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^\[violation\] incident × incident-2026: noCrossTenantRead \(60 runs/);
    expect(r.out).toMatch(/seed 1; [\d.,]+ runs\/s; depth min \d+, median \d+/);
    expect(r.out).toMatch(
      /shrunk noCrossTenantRead: walk \d+ \(\d+ steps, 2 requests\) to 21 steps, 2 requests/,
    );
    expect(r.out).toContain('another tenant’s KV');
    expect(r.out).toContain(
      'Reproduce: npx kvcheck simulate --scenario incident --variant incident-2026 --invariant noCrossTenantRead --runs 60 --depth 1000 --seed 1',
    );
  });

  it('exits 3 when no walk violates anything, and chooses and prints a seed when none is given', async () => {
    const r = await run('simulate', '--scenario', 'incident', '--variant', 'fixed', '--runs', '20');
    expect(r.code).toBe(3);
    expect(r.out).toMatch(
      /^\[incomplete\] incident × fixed: no violation in any random walk; nothing is proven/,
    );
    const seed = /seed (\d+);/.exec(r.out)?.[1];
    expect(seed).toBeDefined();
    expect(r.out).toContain(`--runs 20 --depth 1000 --seed ${seed}`);
  });

  it('--json: the Outcome with the simulation figures; the same --seed gives the same result', async () => {
    const args = [...incidentArgs, '--runs', '30', '--depth', '40', '--seed', '99', '--json'];
    const a = await run(...args);
    const b = await run(...args);
    expect(a.code).toBe(1);
    const outcome = JSON.parse(a.out);
    const result = outcome.results[0];
    expect(result).toMatchObject({
      scenario: 'incident',
      variant: 'incident-2026',
      status: 'violation',
    });
    expect(result.simulation).toMatchObject({ seed: 99, runs: 30, depthLimit: 40 });
    expect(result.simulation.depths.histogram.length).toBeGreaterThan(0);
    expect(typeof result.simulation.runsPerSecond).toBe('number');
    expect(stable(b.out)).toEqual(stable(a.out));
  });

  it('walks a scenario file of six requests and shrinks the leak to the two it needs', async () => {
    const file = fileURLToPath(new URL('../../examples/incident-6.yaml', import.meta.url));
    const args = ['--config', file, '--invariant', 'noCrossTenantRead', '--runs', '150'];
    const r = await run('simulate', ...args, '--variant', 'incident-2026', '--seed', '7', '--json');
    expect(r.code).toBe(1);
    const [result] = JSON.parse(r.out).results;
    expect(result).toMatchObject({ scenario: 'incident-6', status: 'violation' });
    const [shrink] = result.simulation.shrinks;
    expect(shrink).toMatchObject({ property: 'noCrossTenantRead', walkRequests: 6, requests: 2 });
    const steps: { rid: string }[] = result.properties[0].trace.steps;
    expect(new Set(steps.map((s) => s.rid)).size).toBe(2);
    expect(steps).toHaveLength(shrink.steps);
    const fixed = await run('simulate', ...args, '--variant', 'fixed', '--seed', '7');
    expect(fixed.code).toBe(3);
  });

  it.each([
    [['--runs', '0'], /^error: --runs: must be a whole number >= 1 \(got "0"\)$/],
    [['--depth', 'deep'], /^error: --depth: must be a whole number >= 1/],
    [['--seed', '-3'], /^error: --seed: must be a whole number from 0 to 4294967295/],
    [['--seed', '4294967296'], /^error: --seed: must be a whole number from 0 to 4294967295/],
    [['--variant', 'nope'], /^error: unknown variant "nope"; accepted: .*incident-2026/],
    [['--invariant', 'nope'], /^error: unknown invariant "nope"; accepted: .*noCrossTenantRead/],
    [['--frobnicate'], /^error: unknown option '--frobnicate'; accepted: .*--seed/],
  ])('bad input %j: exit 2 with one error line', async (flags, message) => {
    expect(usageError(await run('simulate', '--scenario', 'incident', ...flags))).toMatch(message);
  });
});
