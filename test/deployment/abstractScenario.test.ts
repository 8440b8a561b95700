/**
 * The abstract scenarios keep the order relations of the deployment they stand for: which side
 * rejects which prompt lengths, and where each pool sits against the window. Random deployments
 * are drawn with a pinned seed (KVCHECK_SEED replays another one).
 */
import { fc, test } from '@fast-check/vitest';
import { incident as builtInIncident } from '../../scenarios/incident.ts';
import { abstractScenarios } from '../../src/deployment/abstractScenario.ts';
import { lintDeployment } from '../../src/deployment/lint.ts';
import { parseDeployment } from '../../src/deployment/loadDeployment.ts';
import { pinnedSeed } from '../seed.ts';
import { example } from './helpers.ts';

const seed = pinnedSeed();

describe('abstractScenarios', () => {
  it('maps the incident’s leaking band onto the built-in incident scenario', () => {
    const m = abstractScenarios(lintDeployment(example('incident.yaml')));
    expect(m.runs.map((r) => r.kind)).toEqual(['accepted', 'prefillRejects', 'bothReject']);
    const leak = m.runs[1]?.scenario;
    const { name: _n, description: _d, ...shape } = builtInIncident;
    expect(leak).toMatchObject(shape);
    expect(m.pools.prefill).toEqual({
      real: 681_280,
      realLimit: 681_274,
      abstract: 8,
      abstractLimit: 2,
    });
  });

  it('gives pools of at least twice the window 20 tokens, as the built-in band scenario', () => {
    const m = abstractScenarios(lintDeployment(example('deepseek-v3.yaml')));
    expect(
      m.runs.map((r) => [r.kind, r.scenario.prefillPoolTokens, r.scenario.requests[1]?.promptLen]),
    ).toEqual([
      ['accepted', 20, 3],
      ['bothReject', 20, 5],
    ]);
  });

  test.prop(
    [
      fc.integer({ min: 10, max: 4_000_000 }),
      fc.integer({ min: 0, max: 8 }),
      fc.double({ min: 0, max: 3, noNaN: true }),
      fc.double({ min: 0, max: 3, noNaN: true }),
    ],
    { seed, numRuns: 300 },
  )(
    `keeps every order relation that decides a verdict (seed ${seed})`,
    (contextLen, reserve, fp, fd) => {
      // The engine refuses to start unless each side admits a prompt: pools of reserve + 2 or more.
      const pool = (f: number) => Math.max(reserve + 2, Math.floor(f * contextLen));
      const d = parseDeployment(
        {
          name: 'r',
          variant: 'fixed',
          contextLen,
          reserve,
          prefill: { maxTotalTokens: pool(fp) },
          decode: { maxTotalTokens: pool(fd) },
        },
        'r.yaml',
      );
      const report = lintDeployment(d);
      const m = abstractScenarios(report);
      const sign = (x: number) => Math.sign(x);
      // Limits of 1 or less all admit no prompt: one value as far as verdicts go.
      const limit = (n: number) => Math.max(1, n);
      const { prefill, decode } = m.pools;
      expect(sign(limit(prefill.abstractLimit) - limit(decode.abstractLimit))).toBe(
        sign(limit(report.limits.prefill) - limit(report.limits.decode)),
      );
      for (const role of ['prefill', 'decode'] as const) {
        expect(m.pools[role].abstractLimit >= 2).toBe(report.limits[role] >= 2);
        if (report.limits[role] < 2) continue;
        const real = report.pools[role].tokens;
        const abs = m.pools[role].abstract;
        expect(abs < 10).toBe(real < contextLen);
        expect(abs >= 20).toBe(real >= 2 * contextLen);
      }
      expect(m.runs.map((r) => r.kind)).toEqual(report.bands.map((b) => b.kind));
      for (const run of m.runs) {
        const b1 = run.scenario.requests[1]?.promptLen ?? 0;
        expect(b1).toBeGreaterThanOrEqual(run.abstract.from);
        expect(b1).toBeLessThanOrEqual(run.abstract.to);
        const prefillRejects = b1 >= m.pools.prefill.abstractLimit;
        const decodeRejects = b1 >= m.pools.decode.abstractLimit;
        expect(prefillRejects).toBe(run.real.from >= report.limits.prefill);
        expect(decodeRejects).toBe(run.real.from >= report.limits.decode);
      }
    },
  );
});
