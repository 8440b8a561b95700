/**
 * A breadth-first search whose queues pack every state (`packFrom: 0`, `keepsStates: false`:
 * each new state packed straight from the step's scratch words, each state expanded from the
 * queue's scratch words) gives the search with states queued as objects: states, transitions,
 * depth, every violation's trace, on serving scenarios (hundreds of words a state) with every
 * property, under symmetry as well.
 */
import { describe, expect, it } from 'vitest';
import { propertyChecks } from '../../bench/engine.ts';
import { properties } from '../../invariants/index.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident, scenarios } from '../../scenarios/index.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { servingReads } from '../../src/checker/serving/servingReads.ts';
import { servingOrbitSize, servingSymmetry } from '../../src/checker/serving/servingSymmetry.ts';
import { eventFilter } from '../../src/checker/serving/unreachableEvents.ts';
import { explore } from '../../src/engine/index.ts';

/** What a run found, times aside: counts and each violation's trace as its events. */
function run(scenario: Scenario, variant: string, packed: boolean, extra: object = {}) {
  const v = variantNamed(variant);
  const machine = createServingMachine(scenario, v);
  const r = explore(machine, {
    events: servingEvents(
      scenario.requests.map((q) => q.id),
      eventFilter(machine, scenario, v),
    ),
    ...propertyChecks(properties),
    reads: servingReads(scenario, Object.entries(properties)),
    ...(packed ? { packFrom: 0, keepsStates: false } : {}),
    ...extra,
  });
  const { states, transitions, depth, unreducedStates } = r.stats;
  return {
    status: r.status,
    counts: { states, transitions, depth, unreducedStates },
    violations: r.violations.map((x) => ({
      name: x.name,
      events: x.trace.map((s) => JSON.stringify(s.event)),
    })),
  };
}

const tightDecode = scenarios.find((s) => s.name === 'tight-decode') as Scenario;

describe('a search that packs every state gives the search with objects', () => {
  it('on the incident under incident-2026: the leak and every shortest trace', () => {
    const packed = run(incident, 'incident-2026', true);
    expect(packed.status).toBe('violation');
    expect(packed.violations.length).toBeGreaterThan(0);
    expect(packed).toEqual(run(incident, 'incident-2026', false));
  });

  it('on tight-decode under fixed: ok, every count', () => {
    const packed = run(tightDecode, 'fixed', true);
    expect(packed.status).toBe('ok');
    expect(packed.counts.states).toBe(5242);
    expect(packed).toEqual(run(tightDecode, 'fixed', false));
  });

  it('on the first 20,000 representatives of incident-3 under fixed, with symmetry', () => {
    const symmetric = {
      symmetry: servingSymmetry(incident3),
      orbitSize: servingOrbitSize(incident3),
      maxStates: 20_000,
    };
    const packed = run(incident3, 'fixed', true, symmetric);
    expect(packed.counts.states).toBe(20_000);
    expect(packed.status).toBe('incomplete');
    expect(packed).toEqual(run(incident3, 'fixed', false, symmetric));
  }, 60_000);
});
