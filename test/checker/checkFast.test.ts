/**
 * The fast engine gives the same Outcome as the reference engine: the same states, transitions
 * and depth, the same verdicts and shortest traces told step by step, the same witnesses and the
 * same lifecycle coverage, on every built-in scenario under every variant and on scenarios with
 * faults, client aborts and chunked prefill.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { findVariant, variants } from '../../machines/variants.ts';
import { happy, incident, scenarios } from '../../scenarios/index.ts';
import { checkScenarioFast } from '../../src/checker/checkFast.ts';
import { checkScenario } from '../../src/checker/checkScenario.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function comparable(r: ScenarioResult) {
  const { engine: _engine, ...rest } = r;
  return { ...rest, stats: { ...rest.stats, ms: 0 } };
}

const extra: Scenario[] = [
  { ...incident, name: 'incident-faults-aborts', transferFaults: true, clientAborts: true },
  { ...happy, name: 'happy-chunked', prefillChunks: 2 },
];

const pairs = [
  ...scenarios.flatMap((s) => variants.map((v) => [s.name, s, v] as const)),
  // The larger extra spaces cost the reference engine seconds each: two variants suffice.
  ...extra.flatMap((s) =>
    variants
      .filter((v) => v.name === 'incident-2026' || v.name === 'fixed')
      .map((v) => [s.name, s, v] as const),
  ),
];

describe.each(pairs)('the fast engine on %s', (_, scenario, variant) => {
  it(`agrees with xstate/graph under ${variant.name}`, () => {
    const reference = checkScenario(scenario, variant, { requiredWitnesses: scenario.witnesses });
    const fast = checkScenarioFast(scenario, variant, { requiredWitnesses: scenario.witnesses });
    expect(comparable(fast)).toEqual(comparable(reference));
    expect(fast.engine).toMatchObject({ name: 'fast', symmetry: false, exact: false });
    expect(fast.engine?.bytesPerState).toBeLessThanOrEqual(64);
  });
});

describe('the fast engine’s bounds', () => {
  it('reports incomplete, never ok, when the state bound stops a passing model', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    const r = checkScenarioFast(incident, fixed, { maxStates: 20 });
    expect(r.status).toBe('incomplete');
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
  });
});
