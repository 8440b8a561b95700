/**
 * The fast engine gives the same Outcome as the reference engine: the same states, transitions
 * and depth, the same verdicts and shortest traces told step by step, the same witnesses and the
 * same lifecycle coverage, on every built-in scenario under every variant and on scenarios with
 * faults, client aborts and chunked prefill.
 */
import { maxReqInputLen, type Scenario } from '../../machines/scenario.ts';
import { findVariant, variants } from '../../machines/variants.ts';
import { happy, incident, scenarios } from '../../scenarios/index.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { checkScenarioFast } from '../../src/checker/checkFast.ts';
import { checkScenario } from '../../src/checker/checkScenario.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';
import { servingSymmetryGroup } from '../../src/checker/serving/servingSymmetry.ts';

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

  it('reports incomplete with what was explored when the memory bound stops it', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    // 1 MiB is below any heap Node runs in: the bound stops the search at its first check.
    const r = checkScenarioFast(incident, fixed, { maxMemory: 1 });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxMemory', limit: 1 });
    expect(r.stats.states).toBeGreaterThan(0);
    expect(r.stats.states).toBeLessThan(126);
    expect(r.stats.transitions).toBeGreaterThan(0);
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
  });
});

describe('the fast engine under symmetry', () => {
  /** Incident's two tenants with identical requests: swapping them is a symmetry. */
  const twins: Scenario = {
    ...incident,
    name: 'twins',
    requests: [
      { id: 'a1', tenant: 'A', promptLen: 3, outputLen: 2 },
      { id: 'b1', tenant: 'B', promptLen: 3, outputLen: 2 },
    ],
  };
  it.each(['incident-2026', 'retire-only'])(
    'counts the unreduced space exactly, as a run without symmetry does (%s)',
    (name) => {
      const variant = findVariant(name);
      if (!variant) throw new Error(`no variant ${name}`);
      const off = checkScenarioFast(twins, variant);
      const on = checkScenarioFast(twins, variant, { symmetry: true });
      expect(on.stats.states).toBeLessThan(off.stats.states);
      expect(on.stats.unreducedStates).toBe(off.stats.states);
      expect(off.stats.unreducedStates).toBeUndefined();
      expect(on.status).toBe(off.status);
    },
  );
});

describe('incident-large, the scale scenario', () => {
  it('keeps the incident’s order relations, with two-chunk prefill, a fault and an abort', () => {
    const s = incidentLarge;
    const b1 = s.requests.find((r) => r.id === 'b1');
    if (!b1) throw new Error('no b1');
    expect(new Set(s.requests.map((r) => r.tenant)).size).toBe(3);
    expect(s.requests).toHaveLength(4);
    expect(b1.promptLen).toBeLessThan(s.contextLen);
    expect(b1.promptLen).toBeGreaterThanOrEqual(maxReqInputLen(s, 'prefill'));
    expect(b1.promptLen).toBeLessThan(maxReqInputLen(s, 'decode'));
    expect(s.contextLen).toBeGreaterThan(s.prefillPoolTokens);
    expect(s).toMatchObject({
      prefillChunks: 2,
      transferFaults: true,
      maxTransferFaults: 1,
      clientAborts: true,
      maxClientAborts: 1,
    });
    expect(servingSymmetryGroup(s)).toHaveLength(1);
  });

  it('reaches every required witness under fixed, so that a pass would not be vacuous', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    const r = checkScenarioFast(incidentLarge, fixed, {
      symmetry: true,
      order: 'depth',
      maxStates: 20_000,
      requiredWitnesses: incidentLarge.witnesses,
    });
    expect(r.status).toBe('incomplete');
    const required = r.witnesses.filter((w) => w.required);
    expect(required.map((w) => w.name).sort()).toEqual([...incidentLarge.witnesses].sort());
    expect(required.every((w) => w.reached)).toBe(true);
  });

  it('ends incomplete, never ok, under a state bound, counting the unreduced states too', () => {
    const fixed = findVariant('fixed');
    if (!fixed) throw new Error('no fixed variant');
    const r = checkScenarioFast(incidentLarge, fixed, { symmetry: true, maxStates: 3000 });
    expect(r.status).toBe('incomplete');
    expect(r.stats.states).toBe(3000);
    expect(r.stats.unreducedStates).toBeGreaterThan(3000);
    expect(r.stats.unreducedStates).toBeLessThanOrEqual(6000);
  });
});
