/**
 * Every built-in scenario under every built-in variant, explored exhaustively with the reference
 * engine: the verdict, the violated properties and the size of the state space are pinned in
 * scenarios/manifest.ts (a regression net, as TLA+ Examples pin theirs).
 */
import { findVariant, variants } from '../../machines/variants.ts';
import { findScenario, scenarios } from '../../scenarios/index.ts';
import { manifest } from '../../scenarios/manifest.ts';
import { check } from '../../src/checker/check.ts';

function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

describe('the manifest', () => {
  it('covers every built-in scenario under every built-in variant', () => {
    const pairs = manifest.map((e) => `${e.scenario}/${e.variant}`).sort();
    const expected = scenarios.flatMap((s) => variants.map((v) => `${s.name}/${v.name}`)).sort();
    expect(pairs).toEqual(expected);
  });
});

describe.each(manifest)('$scenario under $variant', (e) => {
  const scenario = must(findScenario(e.scenario), e.scenario);
  const result = check(scenario, must(findVariant(e.variant), e.variant), {
    requiredWitnesses: scenario.witnesses,
  });

  it(`is ${e.status} with the pinned state space`, () => {
    expect(result.status).toBe(e.status);
    expect(result.stats).toMatchObject({
      states: e.states,
      transitions: e.transitions,
      depth: e.depth,
    });
  });

  it('violates exactly the expected properties, each with a trace', () => {
    const violated = result.properties.filter((p) => p.status === 'violated');
    expect(violated.map((p) => p.name)).toEqual(e.violated);
    for (const p of violated) expect(p.trace?.steps.length).toBeGreaterThan(0);
    for (const p of result.properties.filter((q) => q.status !== 'violated')) {
      expect(p.status).toBe('holds');
    }
  });

  it('reaches every witness the scenario requires', () => {
    const missing = result.witnesses.filter((w) => w.required && !w.reached).map((w) => w.name);
    expect(missing).toEqual([]);
  });
});
