/**
 * Configuration views put together from parts (`configView.ts`): on the serving machine, whose
 * root is parallel, every view of every reachable configuration holds what a view built
 * directly from its flags holds (the state value, the active nodes, the event types, the tags,
 * the key and its hash), its selection plans are the very plans built without parts, selecting
 * by its parts' plans selects the very transitions of those plans, and `ofValue` finds it
 * again from its state value, from the parts' own values or from a copy.
 */
import { describe, expect, it } from 'vitest';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import type { CompiledTransition } from '../../src/engine/compiledMachine.ts';
import { compileMachine } from '../../src/engine/compiledMachine.ts';
import { type ConfigView, EngineSnapshot, viewsOf } from '../../src/engine/configView.ts';
import { hashString } from '../../src/engine/fingerprint.ts';
import { explore } from '../../src/engine/index.ts';
import { buildPlan, runPlan, selectByParts } from '../../src/engine/selection.ts';

const machine = createServingMachine(incident3, variantNamed('incident-2026'));
const compiled = compileMachine(machine);

const events = servingEvents(incident3.requests.map((r) => r.id));

/** One reached state as the engine holds it. */
interface Reached {
  readonly view: ConfigView;
  readonly context: unknown;
}

/** Every configuration view the search of `incident-3` reaches, and every 7th state. */
function reached(): { views: ConfigView[]; states: Reached[] } {
  const views = new Set<ConfigView>();
  const states: Reached[] = [];
  explore(machine, {
    events,
    onState: (s, index) => {
      const state = s as unknown as Reached;
      views.add(state.view);
      if (index % 7 === 0) states.push(state);
    },
  });
  return { views: [...views], states };
}

const { views, states } = reached();

/** The snapshot of an engine state, as `events` functions receive it. */
const state = (view: ConfigView, context: unknown) => new EngineSnapshot(view, context);

/** The active node orders of `flags`, in document order. */
const activeOf = (flags: Uint8Array) => [...flags.keys()].filter((n) => flags[n] === 1);

describe('views put together from parts', () => {
  it('cover a space with many configurations, each made of one part per request', () => {
    expect(views.length).toBeGreaterThan(1000);
    for (const v of views.filter((x) => !x.done)) {
      expect(v.parts?.length).toBe(incident3.requests.length);
    }
  });

  it('hold what a view built from the flags alone holds', () => {
    const specs = compiled.spec.nodes;
    for (const v of views) {
      const active = activeOf(v.flags);
      expect(v.value).toEqual(compiled.stateValueOf(v.flags, v.done));
      expect(v.nodes).toEqual(active.map((n) => specs[n]?.active));
      expect(v.ownTypes).toEqual([...new Set(active.flatMap((n) => specs[n]?.ownEvents ?? []))]);
      expect([...v.tags].sort()).toEqual(
        [...new Set(active.flatMap((n) => specs[n]?.tags ?? []))].sort(),
      );
      expect(v.key).toBe(String.fromCharCode(...active) + (v.done ? '!' : '|'));
      expect(v.hash).toEqual(hashString(v.key, 0x1b873593, 0xcc9e2d51));
    }
  });

  it('plan each event type with the very plans built without parts', () => {
    const types = [...new Set(views.flatMap((v) => v.ownTypes))];
    expect(types.length).toBeGreaterThan(5);
    for (const v of views) {
      for (const type of types) {
        const direct = buildPlan(compiled, type, v.flags, v.done);
        expect(buildPlan(compiled, type, v.flags, v.done, v.parts)).toBe(direct);
      }
    }
  });

  it('select by their parts what the plan built without parts selects, on reached states', () => {
    let selections = 0;
    let parallel = 0;
    const mismatches: string[] = [];
    // The plans built without parts, by view and event type (building them is the slow part).
    const direct = new Map<ConfigView, Map<string, ReturnType<typeof buildPlan>>>();
    const planOf = (view: ConfigView, type: string) => {
      const plans = direct.get(view) ?? new Map<string, ReturnType<typeof buildPlan>>();
      direct.set(view, plans);
      if (!plans.has(type)) plans.set(type, buildPlan(compiled, type, view.flags, view.done));
      return plans.get(type) ?? null;
    };
    for (const { view, context } of states) {
      if (view.parts === null) continue;
      const at = { flags: view.flags, done: view.done };
      for (const event of events(state(view, context))) {
        const byPlan: CompiledTransition[] = [];
        const plan = planOf(view, event.type);
        const any = plan !== null && runPlan(plan, { context, event }, at, byPlan);
        const byParts: CompiledTransition[] = [];
        const found = selectByParts(compiled, view.parts, { context, event }, at, byParts);
        // The very transition objects, in the same order.
        const same = byParts.length === byPlan.length && byParts.every((t, i) => t === byPlan[i]);
        if (found !== any || !same) mismatches.push(`${view.key} ${JSON.stringify(event)}`);
        if (any) selections++;
        if (byParts.length > 1) parallel++;
      }
    }
    expect(mismatches).toEqual([]);
    // Not vacuous: many events select, some in several regions of a request at once. (Events
    // are addressed to one request, so no two requests select at once here; the random
    // parallel machines of `randomMachines.test.ts` cover that, against XState.)
    expect(selections).toBeGreaterThan(1000);
    expect(parallel).toBeGreaterThan(0);
  });

  it('are found again from their state value, as given or copied', () => {
    const cache = viewsOf(compiled);
    for (const v of views) {
      expect(cache.ofValue(v.value, v.done)).toBe(v);
      expect(cache.ofValue(structuredClone(v.value), v.done)).toBe(v);
    }
  });
});
