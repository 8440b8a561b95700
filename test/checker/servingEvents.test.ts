/**
 * The serving machine's event function: on the engine's states (frozen values whose regions are
 * shared, so a configuration's events are put together from its regions' cached events) it
 * offers exactly what it offers on an XState-like snapshot of the same state (a value of its
 * own, computed from the active nodes every time), in the same order, on every state of the
 * built-in scenarios and of a symmetric one (symmetry images move regions between requests).
 */
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { incident3 } from '../../scenarios/symmetric.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { servingSymmetry } from '../../src/checker/serving/servingSymmetry.ts';
import { type AnySnapshot, activeNodesOf, explore } from '../../src/engine/index.ts';
import type { SnapshotLike } from '../../src/engine/types.ts';

type Text = string;
const text = (events: readonly ExternalEvent[]): Text =>
  events.map((e) => `${e.rid}:${e.type}`).join(' ');

/** The events offered on every state of a search: by the engine's snapshot, and by a copy. */
function offered(
  scenario: (typeof scenarios)[number],
  symmetry: boolean,
): { engine: Text[]; copy: Text[] } {
  const rids = scenario.requests.map((r) => r.id);
  const events = servingEvents(rids);
  const fresh = servingEvents(rids);
  const engine: Text[] = [];
  const copy: Text[] = [];
  explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variantNamed('fixed')), {
    events,
    maxStates: 20_000,
    ...(symmetry ? { symmetry: servingSymmetry(scenario) } : {}),
    onState: (s: SnapshotLike<ServingContext>) => {
      const snap = s as unknown as AnySnapshot;
      engine.push(text(events(snap)));
      // A value of its own (not frozen, not shared): computed from the nodes, never cached.
      const own = { value: structuredClone(s.value), activeNodes: activeNodesOf(snap) };
      copy.push(text(fresh(own as unknown as AnySnapshot)));
    },
  });
  return { engine, copy };
}

describe('servingEvents', () => {
  it.each(scenarios.map((s) => [s.name, s] as const))(
    'offers on %s the events computed from the active nodes',
    (_name, scenario) => {
      const { engine, copy } = offered(scenario, false);
      expect(engine.length).toBeGreaterThan(100);
      expect(engine).toEqual(copy);
    },
  );

  it('caches no region value that is not frozen (a frozen value over a region that changes)', () => {
    const events = servingEvents(['a1']);
    const region: { router: string } = { router: 'idle' };
    const at = (ownEvents: string[]) =>
      ({
        value: Object.freeze({ a1: region }),
        activeNodes: [{ path: ['a1', 'router'], ownEvents }],
      }) as unknown as AnySnapshot;
    expect(text(events(at(['DISPATCH'])))).toBe('a1:DISPATCH');
    region.router = 'sent';
    expect(text(events(at(['PREFILL_INTAKE'])))).toBe('a1:PREFILL_INTAKE');
  });

  it('offers the same under symmetry (incident-3: images move regions between requests)', () => {
    const { engine, copy } = offered(incident3, true);
    expect(engine.length).toBeGreaterThan(1000);
    expect(engine).toEqual(copy);
    // Not vacuous: states offer events to more than one request.
    expect(engine.some((t) => new Set(t.split(' ').map((e) => e.split(':')[0])).size > 1)).toBe(
      true,
    );
  });
});
