/**
 * The checker's contract beyond verdicts: bounded searches never pass, results are reproducible,
 * and every counterexample replays through XState's own `transition()` to a violating state.
 */
import { initialTransition, transition } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { properties } from '../../invariants/index.ts';
import { externalEventTypes } from '../../machines/events.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { checkScenario } from '../../src/checker/checkScenario.ts';
import type { ScenarioResult } from '../../src/checker/outcome.ts';

function withoutTimes(r: ScenarioResult) {
  return { ...r, stats: { ...r.stats, ms: 0 } };
}

describe('bounded search', () => {
  it('reports incomplete, never ok, when the state bound stops a passing model', () => {
    const r = checkScenario(incident, variantNamed('fixed'), { maxStates: 20 });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxStates', limit: 20 });
    expect(r.properties.every((p) => p.status === 'unknown')).toBe(true);
    expect(r.stats.states).toBeGreaterThan(20);
  });

  it('reports incomplete when the bound stops the search before any violation is reached', () => {
    const r = checkScenario(incident, variantNamed('incident-2026'), { maxStates: 5 });
    expect(r.status).toBe('incomplete');
  });

  it('still reports a violation found within the bound', () => {
    const r = checkScenario(incident, variantNamed('incident-2026'), { maxStates: 1500 });
    expect(r.bound?.reason).toBe('maxStates');
    expect(r.status).toBe('violation');
    expect(r.properties.find((p) => p.name === 'rejectedNeverHandedOff')?.status).toBe('violated');
    expect(r.properties.find((p) => p.name === 'noLeakAtQuiescence')?.status).toBe('unknown');
  });

  it('reports incomplete when the time bound is hit', () => {
    const r = checkScenario(incident, variantNamed('incident-2026'), { maxSeconds: 1e-9 });
    expect(r.status).toBe('incomplete');
    expect(r.bound?.reason).toBe('maxSeconds');
  });
});

describe('reproducibility', () => {
  it('gives the same verdict, counts and traces on every run', () => {
    const a = checkScenario(incident, variantNamed('incident-2026'));
    const b = checkScenario(incident, variantNamed('incident-2026'));
    expect(withoutTimes(a)).toEqual(withoutTimes(b));
  });
});

describe('counterexamples', () => {
  const v = variantNamed('incident-2026');
  const result = checkScenario(incident, v);
  const violated = result.properties.filter((p) => p.status === 'violated');

  it.each(violated.map((p) => [p.name, p] as const))(
    'the %s trace replays through transition() to a violating state',
    (name, p) => {
      const machine = createServingMachine(incident, v);
      let [snapshot] = initialTransition(machine);
      for (const step of p.trace?.steps ?? []) {
        const event = { type: step.event, rid: step.rid } as Parameters<typeof transition>[2];
        const [next] = transition(machine, snapshot, event);
        expect(next, `step ${step.step} ${step.event} ${step.rid} is enabled`).not.toBe(snapshot);
        snapshot = next as typeof snapshot;
      }
      const prop = properties[name];
      const state = { value: snapshot.value as never, context: snapshot.context };
      expect(prop?.(state)).toBe(false);
      expect(prop?.explain(state)).toBe(p.trace?.message);
    },
  );

  it('are shortest: no violating state is closer to the initial state', () => {
    const noCross = violated.find((p) => p.name === 'noCrossTenantRead');
    // A ran 11 steps to completion and B needs 10 more to read its stale page.
    expect(noCross?.trace?.steps).toHaveLength(21);
    const handoff = violated.find((p) => p.name === 'rejectedNeverHandedOff');
    expect(handoff?.trace?.steps.map((s) => `${s.event} ${s.rid}`)).toEqual([
      'DISPATCH b1',
      'PREFILL_INTAKE b1',
      'DECODE_INTAKE b1',
      'DECODE_PREALLOC b1',
      'PREFILL_BOOTSTRAPPED b1',
      'PREFILL_FORWARD b1',
      'SEND_KV b1',
    ]);
  });
});

describe('the event alphabet offered to xstate/graph', () => {
  it.each(['fixed', 'retire-only'])(
    'loses no state against offering every event for every request (incident under %s)',
    (name) => {
      const v = variantNamed(name);
      const events = incident.requests.flatMap((r) =>
        externalEventTypes.map((type) => ({ type, rid: r.id })),
      );
      const all = getAdjacencyMap(createServingMachine(incident, v), { events });
      expect(checkScenario(incident, v).stats.states).toBe(Object.keys(all).length);
    },
  );
});
