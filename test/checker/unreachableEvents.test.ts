/**
 * The events a check does not offer (`eventFilter`): types a scenario's fault settings or a
 * variant's switches leave no transition to take, and events a request's configuration leaves
 * no transition to take. Leaving them out must change nothing but the time: on every built-in
 * scenario under every variant (and `incident-3`, `incident-large`), a search offered fewer
 * events finds the same states, transitions, depth and counterexamples. A filter that leaves
 * out an event that can be taken changes the search (so the comparison can fail), and a check
 * on a machine of the caller's, whose guards may differ from their names, offers every event.
 * The engine agreement tests (`agreement*.test.ts`) compare `check`'s fast engine, which is
 * offered fewer events, with the reference engine, which is offered all, on the catalogue too.
 */
import { createMachine } from 'xstate';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { happy, scenarios } from '../../scenarios/index.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { check } from '../../src/checker/check.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import {
  checkServingLiveness,
  servingFairness,
  servingLeadsTo,
} from '../../src/checker/serving/servingLiveness.ts';
import { servingSymmetry } from '../../src/checker/serving/servingSymmetry.ts';
import { type EventFilter, eventFilter } from '../../src/checker/serving/unreachableEvents.ts';
import { type AnySnapshot, checkLiveness, explore } from '../../src/engine/index.ts';

const faultEvents = ['CLIENT_ABORT', 'PREFILL_ERROR', 'TRANSFER_FAIL'];

/** A search of `scenario` under `variant` offered what `filter` keeps: counts, traces, offers. */
function search(
  scenario: Scenario,
  variant: Variant,
  filter: EventFilter | null = null,
  symmetry = false,
) {
  const events = servingEvents(
    scenario.requests.map((q) => q.id),
    filter,
  );
  let offered = 0;
  const r = explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
    events: (s: AnySnapshot) => {
      const list = events(s);
      offered += list.length;
      return list;
    },
    maxStates: 6000,
    ...(symmetry ? { symmetry: servingSymmetry(scenario) } : {}),
  });
  const { states, transitions, depth } = r.stats;
  const traces = r.violations.map((v) => `${v.name}:${v.trace.map((s) => s.event?.type).join()}`);
  return { counts: { states, transitions, depth }, traces, offered };
}

const filterOf = (s: Scenario, v: Variant) => eventFilter(createServingMachine(s, v), s, v);

const cases = [...scenarios, incident3, incidentLarge].flatMap((s) =>
  variants.map((v) => [s.name, v.name, s, v] as const),
);

describe('eventFilter', () => {
  it('leaves out the fault events of scenarios without faults, and only those', () => {
    for (const s of [...scenarios, incident3]) {
      for (const v of variants) expect([...filterOf(s, v).leftOut].sort()).toEqual(faultEvents);
    }
  });

  it('keeps the events of the faults a scenario enables (incident-large: transfer faults and aborts)', () => {
    const v = variantNamed('fixed');
    expect([...filterOf(incidentLarge, v).leftOut]).toEqual(['PREFILL_ERROR']);
    const aborts: Scenario = { ...happy, clientAborts: true };
    const kept = filterOf(aborts, v).leftOut;
    expect(kept.has('CLIENT_ABORT')).toBe(false);
    expect(kept.has('TRANSFER_FAIL')).toBe(true);
  });

  it('judges ROUTER_REPLY by the request’s configuration: only once both sides are done', () => {
    const v = variantNamed('fixed');
    const f = filterOf(happy, v);
    const done = new Set(['a1', 'a1.router', 'a1.router.awaiting', 'a1.prefill', 'a1.decode']);
    expect(f.mayTake('ROUTER_REPLY', 'a1', done)).toBe(false);
    const both = new Set([...done, 'a1.prefill.done', 'a1.decode.done']);
    expect(f.mayTake('ROUTER_REPLY', 'a1', both)).toBe(true);
    // Data guards may hold: a decode step is judged by the context, never left out here.
    expect(f.mayTake('DECODE_STEP', 'a1', new Set(['a1', 'a1.decode', 'a1.decode.running']))).toBe(
      true,
    );
  });

  it('reads a wildcard descriptor as handling every type it matches', () => {
    // A request region whose only transition is on `*`, unguarded: every type may be taken.
    const wild = createMachine({
      id: 'wild',
      type: 'parallel',
      states: { a1: { initial: 's', states: { s: { on: { '*': { target: 't' } } }, t: {} } } },
    }) as unknown as ServingMachine;
    const f = eventFilter(wild, happy, variantNamed('fixed'));
    expect(f.leftOut.size).toBe(0);
    expect(f.mayTake('CLIENT_ABORT', 'a1', new Set(['a1', 'a1.s']))).toBe(true);
    expect(f.mayTake('CLIENT_ABORT', 'a1', new Set(['a1', 'a1.t']))).toBe(false);
  });

  it.each(cases)(
    'changes nothing on %s × %s but the events offered',
    (_s, _v, scenario, variant) => {
      const all = search(scenario, variant);
      const fewer = search(scenario, variant, filterOf(scenario, variant));
      expect(all.counts.states).toBeGreaterThan(100);
      expect(fewer.counts).toEqual(all.counts);
      expect(fewer.traces).toEqual(all.traces);
      expect(fewer.offered).toBeLessThan(all.offered);
    },
  );

  it.each([incident3, incidentLarge].map((s) => [s.name, s] as const))(
    'changes nothing on %s under symmetry (images move regions between requests)',
    (_name, scenario) => {
      const v = variantNamed('fixed');
      const all = search(scenario, v, null, true);
      const fewer = search(scenario, v, filterOf(scenario, v), true);
      expect(fewer.counts).toEqual(all.counts);
      expect(fewer.traces).toEqual(all.traces);
      expect(fewer.offered).toBeLessThan(all.offered);
    },
  );

  it('would be caught leaving out an event that can be taken', () => {
    const v = variantNamed('fixed');
    const everything: EventFilter = { leftOut: new Set(), mayTake: () => true };
    const all = search(incidentLarge, v, everything);
    expect(all.counts).toEqual(search(incidentLarge, v).counts);
    // A type that is taken on incident-large, where clients abort.
    const noAborts: EventFilter = {
      leftOut: new Set(['CLIENT_ABORT']),
      mayTake: (type) => type !== 'CLIENT_ABORT',
    };
    expect(search(incidentLarge, v, noAborts).counts).not.toEqual(all.counts);
    // A configuration misjudged: the router's reply never offered.
    const noReply: EventFilter = {
      leftOut: new Set(),
      mayTake: (type) => type !== 'ROUTER_REPLY',
    };
    expect(search(happy, v, noReply).counts).not.toEqual(search(happy, v).counts);
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

describe('checkServingLiveness offered what check offers', () => {
  /** The result without its time, which is all that may differ between runs. */
  const timeless = <R extends { stats: { ms: number } }>(r: R) => ({
    ...r,
    stats: { ...r.stats, ms: 0 },
  });

  it.each(
    [...scenarios, incident3].flatMap((s) => variants.map((v) => [s.name, v.name, s, v] as const)),
  )('%s × %s: the same result as offered every event', (_s, _v, scenario, variant) => {
    const rids = scenario.requests.map((q) => q.id);
    const maxStates = 3000;
    const every = checkLiveness<ServingContext, ExternalEvent>(
      createServingMachine(scenario, variant),
      {
        events: servingEvents(rids),
        leadsTo: servingLeadsTo(rids),
        fairness: servingFairness,
        maxStates,
      },
    );
    const filtered = checkServingLiveness(scenario, variant, { maxStates });
    expect(timeless(filtered)).toEqual(timeless(every));
    expect(filtered.stats.states).toBeGreaterThan(0);
  });

  it('offers every event to a machine of the caller’s', () => {
    const v = variantNamed('fixed');
    const aborting = createServingMachine(happy, v).provide({
      guards: { clientAbortsEnabled: () => true },
    });
    const own = checkServingLiveness(happy, v, { maxStates: 3000 });
    const provided = checkServingLiveness(happy, v, { machine: aborting, maxStates: 3000 });
    // The provided guard lets clients abort: more transitions, found only if CLIENT_ABORT is offered.
    expect(provided.stats.transitions).toBeGreaterThan(own.stats.transitions);
  });
});
