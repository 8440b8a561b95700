/**
 * The two engines behind `check` agree: on every built-in scenario under every variant, on the
 * incident with faults, client aborts and chunked prefill, and on every catalogue scenario (its
 * faulty variant and `fixed`), the fast engine and the xstate/graph reference give the same
 * `ScenarioResult` (states, transitions, depth, verdicts, shortest traces told step by step,
 * witnesses, lifecycle coverage), and every counterexample replays through XState's own
 * `transition()` to a state that violates its property. The offered events are checked against
 * an independent alphabet: every event for every request loses no state.
 */
import { initialTransition, transition } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { properties } from '../../invariants/index.ts';
import { externalEventTypes } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { happy, incident, scenarios } from '../../scenarios/index.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function comparable(r: ScenarioResult) {
  const { engine: _engine, ...rest } = r;
  return { ...rest, stats: { ...rest.stats, ms: 0 } };
}

const extra: Scenario[] = [
  { ...incident, name: 'incident-faults-aborts', transferFaults: true, clientAborts: true },
  { ...happy, name: 'happy-chunked', prefillChunks: 2 },
];

const pairs: [string, Scenario, Variant][] = [
  ...scenarios.flatMap((s) => variants.map((v): [string, Scenario, Variant] => [s.name, s, v])),
  // The larger extra spaces cost the reference engine seconds each: two variants suffice.
  ...extra.flatMap((s) =>
    ['incident-2026', 'fixed'].map((v): [string, Scenario, Variant] => [
      s.name,
      s,
      variantNamed(v),
    ]),
  ),
  ...catalogue.flatMap((e) =>
    [e.variant, fixedVariant()].map((v): [string, Scenario, Variant] => [
      `${e.id} ${e.scenario.name}`,
      e.scenario,
      v,
    ]),
  ),
];

/** Replays `steps` through XState's `transition()`; the last snapshot's plain state. */
function replay(
  scenario: Scenario,
  variant: Variant,
  steps: readonly { event: string; rid: string }[],
) {
  const machine = createServingMachine(scenario, variant);
  let [snapshot] = initialTransition(machine);
  for (const step of steps) {
    const event = { type: step.event, rid: step.rid } as Parameters<typeof transition>[2];
    const [next] = transition(machine, snapshot, event);
    expect(next, `${step.event} ${step.rid} is enabled`).not.toBe(snapshot);
    snapshot = next as typeof snapshot;
  }
  return { value: snapshot.value as never, context: snapshot.context };
}

describe.each(pairs)('%s', (_, scenario, variant) => {
  it(`under ${variant.name}: both engines give the same result, and its traces replay`, () => {
    const options = { requiredWitnesses: scenario.witnesses };
    const fast = check(scenario, variant, options);
    const graph = check(scenario, variant, { ...options, engine: 'graph' });
    expect(graph.status).not.toBe('incomplete');
    expect(comparable(fast)).toEqual(comparable(graph));
    expect(fast.engine).toMatchObject({ name: 'fast', symmetry: false, exact: false });
    for (const p of fast.properties) {
      if (!p.trace) continue;
      const state = replay(scenario, variant, p.trace.steps);
      expect(properties[p.name]?.explain(state), p.name).toBe(p.trace.message);
    }
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
