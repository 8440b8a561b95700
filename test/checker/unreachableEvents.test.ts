/**
 * The event types a check does not offer (`unreachableEventTypes`): the ones a scenario's fault
 * settings or a variant's switches leave no transition to take. Leaving them out must change
 * nothing but the time: on every built-in scenario under every variant, a type left out is
 * never enabled when it is offered, and a search without it finds the same states,
 * transitions, depth and counterexamples. A type that can be taken, left out, changes the
 * transitions (so the comparison can fail), and a check on a machine of the caller's, whose
 * guards may differ from their names, offers every event.
 */
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { happy, scenarios } from '../../scenarios/index.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { check } from '../../src/checker/check.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { unreachableEventTypes } from '../../src/checker/serving/unreachableEvents.ts';
import { explore } from '../../src/engine/index.ts';

const faultEvents = ['TRANSFER_FAIL', 'CLIENT_ABORT', 'PREFILL_ERROR'];

/** A search of `scenario` under `variant` offered every event but `leftOut`, as numbers and traces. */
function search(scenario: Scenario, variant: Variant, leftOut?: ReadonlySet<string>) {
  const enabled = new Set<string>();
  const r = explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
    events: servingEvents(
      scenario.requests.map((q) => q.id),
      leftOut,
    ),
    maxStates: 6000,
    onMove: (_from, e) => enabled.add(e.type),
  });
  const { states, transitions, depth } = r.stats;
  const traces = r.violations.map((v) => `${v.name}:${v.trace.map((s) => s.event?.type).join()}`);
  return { counts: { states, transitions, depth }, traces, enabled };
}

const cases = [...scenarios, incident3, incidentLarge].flatMap((s) =>
  variants.map((v) => [s.name, v.name, s, v] as const),
);

describe('unreachableEventTypes', () => {
  it('leaves out the fault events of scenarios without faults, and only those', () => {
    for (const s of [...scenarios, incident3]) {
      for (const v of variants) {
        expect([...unreachableEventTypes(createServingMachine(s, v), s, v)].sort()).toEqual(
          [...faultEvents].sort(),
        );
      }
    }
  });

  it('keeps the events of the faults a scenario enables (incident-large: transfer faults and aborts)', () => {
    const v = variantNamed('fixed');
    const left = unreachableEventTypes(createServingMachine(incidentLarge, v), incidentLarge, v);
    expect([...left]).toEqual(['PREFILL_ERROR']);
    const aborts: Scenario = { ...happy, clientAborts: true };
    const kept = unreachableEventTypes(createServingMachine(aborts, v), aborts, v);
    expect(kept.has('CLIENT_ABORT')).toBe(false);
    expect(kept.has('TRANSFER_FAIL')).toBe(true);
  });

  it.each(cases)(
    'changes nothing on %s × %s: the left-out types are never enabled, and the search is the same',
    (_s, _v, scenario, variant) => {
      const left = unreachableEventTypes(
        createServingMachine(scenario, variant),
        scenario,
        variant,
      );
      const all = search(scenario, variant);
      const fewer = search(scenario, variant, left);
      expect(all.counts.states).toBeGreaterThan(100);
      expect([...left].filter((t) => all.enabled.has(t))).toEqual([]);
      expect(fewer.counts).toEqual(all.counts);
      expect(fewer.traces).toEqual(all.traces);
    },
  );

  it('would be caught leaving out a type that can be taken (CLIENT_ABORT on incident-large)', () => {
    const v = variantNamed('fixed');
    const all = search(incidentLarge, v);
    const wrong = search(incidentLarge, v, new Set(['CLIENT_ABORT']));
    expect(all.enabled.has('CLIENT_ABORT')).toBe(true);
    expect(wrong.counts).not.toEqual(all.counts);
  });

  it('is not used on a machine of the caller’s, whose guards may not be what their names say', () => {
    const v = variantNamed('fixed');
    const own = check(happy, v);
    const aborting = createServingMachine(happy, v).provide({
      guards: { clientAbortsEnabled: () => true },
    });
    const provided = check(happy, v, { machine: aborting });
    // The provided guard lets clients abort: more transitions, found only if CLIENT_ABORT is offered.
    expect(provided.stats.transitions).toBeGreaterThan(own.stats.transitions);
  });
});
