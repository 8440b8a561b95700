/**
 * The model against an oracle that knows nothing of the machines: under `incident-2026`,
 * `noCrossTenantRead` is violated exactly when `leakPair` (src/oracle/leakOracle.ts), pure
 * arithmetic over the scenario, says the leak is possible. A disagreement is a model bug or a
 * wrong oracle; the failure message names the oracle's pair and the model's counterexample.
 *
 * Scenarios come from two arbitraries: any scenario inside small bounds (mostly no leak), and
 * incident-shaped ones (often a leak, often narrowly none). The last test checks that both
 * verdicts occur in numbers, so agreement is not vacuous.
 *
 * The seed is pinned (KVCHECK_SEED, else 20261026) and printed in the titles.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/incident.ts';
import { check } from '../../src/checker/check.ts';
import { leakOracleApplies, leakPair } from '../../src/oracle/leakOracle.ts';
import { incidentShapedArb, pinnedSeed, scenarioArb, smallBounds } from './scenarioArbitraries.ts';

const seed = pinnedSeed();
const maxStates = 20_000;

const incident2026 = variantNamed('incident-2026');

const scenarios = fc.oneof(
  scenarioArb(smallBounds),
  incidentShapedArb({ ...smallBounds, contextLen: 8 }),
);

/** The model's verdict on `noCrossTenantRead`, from a complete exhaustive run. */
function modelLeaks(s: Scenario): { leaks: boolean; message: string | undefined } {
  const r = check(s, incident2026, { properties: ['noCrossTenantRead'], maxStates });
  expect(r.bound).toBeUndefined();
  expect(r.status).not.toBe('incomplete');
  const p = r.properties[0];
  return { leaks: p?.status === 'violated', message: p?.trace?.message };
}

describe(`the leak oracle against the model (seed: ${seed})`, () => {
  test.prop([scenarios], { seed, numRuns: 120 })(
    'incident-2026 violates noCrossTenantRead exactly when the oracle says the leak is possible',
    (s) => {
      expect(leakOracleApplies(s)).toBe(true);
      const oracle = leakPair(s);
      const model = modelLeaks(s);
      const why = `oracle: ${oracle ? `${oracle.victim} reads ${oracle.writer}` : 'no leak'}; model: ${model.message ?? 'no leak'}`;
      expect(model.leaks, why).toBe(oracle !== null);
    },
  );

  it('both verdicts occur often enough for the agreement to mean something', () => {
    const samples = fc.sample(scenarios, { seed, numRuns: 400 });
    const leaks = samples.filter((s) => leakPair(s) !== null).length;
    expect(leaks).toBeGreaterThan(samples.length / 20);
    expect(samples.length - leaks).toBeGreaterThan(samples.length / 2);
  });

  it('is exact only for two requests with no scenario option turned on', () => {
    expect(leakOracleApplies(incident)).toBe(true);
    const third = { id: 'c1', tenant: 'C', promptLen: 1, outputLen: 1 };
    expect(leakOracleApplies({ ...incident, requests: [...incident.requests, third] })).toBe(false);
    expect(leakOracleApplies({ ...incident, transferFaults: true })).toBe(false);
    expect(leakOracleApplies({ ...incident, clientAborts: true })).toBe(false);
    expect(leakOracleApplies({ ...incident, prefillChunks: 2 })).toBe(false);
    // An option the oracle does not know takes a scenario out of its scope.
    expect(leakOracleApplies({ ...incident, someNewMechanism: 3 } as Scenario)).toBe(false);
  });

  it('the oracle names the incident scenario’s pair (b1 reads a1), and no pair once pools are 20', () => {
    const s = (prefillPoolTokens: number, decodePoolTokens: number): Scenario => ({
      ...incident,
      prefillPoolTokens,
      decodePoolTokens,
    });
    expect(leakPair(s(8, 10))).toEqual({ victim: 'b1', writer: 'a1' });
    expect(leakPair(s(20, 20))).toBeNull();
  });
});
