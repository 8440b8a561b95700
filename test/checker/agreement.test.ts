/**
 * The two engines behind `check` agree on every built-in scenario under every variant: the fast
 * engine and the
 * xstate/graph reference give the same `ScenarioResult` (states, transitions, depth, verdicts,
 * shortest traces told step by step, witnesses, lifecycle coverage), and every counterexample
 * replays through XState's own `transition()` (see `agreement.ts`; faults, aborts and chunks
 * are in `agreementFaults.test.ts`, the catalogue in `agreementCatalogue.test.ts`). The offered events are checked against an independent
 * alphabet: every event for every request loses no state.
 */
import { getAdjacencyMap } from 'xstate/graph';
import { externalEventTypes } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { incident, scenarios } from '../../scenarios/index.ts';
import { check } from '../../src/checker/check.ts';
import { expectAgreement } from './agreement.ts';

const pairs: [string, Scenario, Variant][] = scenarios.flatMap((s) =>
  variants.map((v): [string, Scenario, Variant] => [s.name, s, v]),
);

describe.each(pairs)('%s', (_, scenario, variant) => {
  it(`under ${variant.name}: both engines give the same result, and its traces replay`, () => {
    expectAgreement(scenario, variant);
  });
});

describe('the offered events', () => {
  it.each(['fixed', 'retire-only'])(
    'lose no state against offering every event for every request (incident under %s)',
    (name) => {
      const v = variantNamed(name);
      const events = incident.requests.flatMap((r) =>
        externalEventTypes.map((type) => ({ type, rid: r.id })),
      );
      const all = getAdjacencyMap(createServingMachine(incident, v), { events });
      expect(check(incident, v).stats.states).toBe(Object.keys(all).length);
    },
  );
});
