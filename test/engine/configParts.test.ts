/**
 * Configuration views put together from parts (`configView.ts`): on the serving machine, whose
 * root is parallel, every view of every reachable configuration holds what a view built
 * directly from its flags holds (the state value, the active nodes, the event types, the tags,
 * the key and its hash), its selection plans are the very plans built without parts, and
 * `ofValue` finds it again from its state value, from the parts' own values or from a copy.
 */
import { describe, expect, it } from 'vitest';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { compileMachine } from '../../src/engine/compiledMachine.ts';
import { type ConfigView, viewsOf } from '../../src/engine/configView.ts';
import { hashString } from '../../src/engine/fingerprint.ts';
import { explore } from '../../src/engine/index.ts';
import { buildPlan } from '../../src/engine/selection.ts';

const machine = createServingMachine(incident3, variantNamed('incident-2026'));
const compiled = compileMachine(machine);

/** Every configuration view the search of `incident-3` reaches. */
function reachedViews(): ConfigView[] {
  const views = new Set<ConfigView>();
  explore(machine, {
    events: servingEvents(incident3.requests.map((r) => r.id)),
    onState: (s) => views.add((s as unknown as { view: ConfigView }).view),
  });
  return [...views];
}

const views = reachedViews();

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

  it('are found again from their state value, as given or copied', () => {
    const cache = viewsOf(compiled);
    for (const v of views) {
      expect(cache.ofValue(v.value, v.done)).toBe(v);
      expect(cache.ofValue(structuredClone(v.value), v.done)).toBe(v);
    }
  });
});
