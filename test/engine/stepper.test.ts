/**
 * The engine's public stepping API and its snapshot contract: a breadth-first walk with
 * `stepper` finds exactly the states and transitions `explore` counts, a stepper refuses states
 * it did not hand out, and `activeNodesOf` reads the same active nodes from an XState snapshot
 * and from the engine's snapshot of the same configuration.
 */
import { initialTransition } from 'xstate';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed } from '../../machines/variants.ts';
import { happy } from '../../scenarios/index.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { activeNodesOf, explore, type SnapshotLike, stepper } from '../../src/engine/index.ts';

const variant = variantNamed('fixed') as Variant;
const events = servingEvents(happy.requests.map((r) => r.id));
const keyOf = (s: SnapshotLike<ServingContext>) => JSON.stringify([s.value, s.context, s.status]);

describe('stepper', () => {
  it('walks the same states and transitions that explore counts', () => {
    const machine = createServingMachine(happy, variant);
    const steps = stepper<ServingContext, ExternalEvent>(machine, { events });
    const seen = new Map([[keyOf(steps.initial), steps.initial]]);
    let transitions = 0;
    for (const state of seen.values()) {
      for (const event of steps.offered(state)) {
        const next = steps.step(state, event);
        if (next === null) continue;
        transitions++;
        if (!seen.has(keyOf(next))) seen.set(keyOf(next), next);
      }
    }
    const result = explore<ServingContext, ExternalEvent>(machine, { events, exact: true });
    expect(seen.size).toBeGreaterThan(100);
    expect({ states: seen.size, transitions }).toEqual({
      states: result.stats.states,
      transitions: result.stats.transitions,
    });
  });

  it('refuses a state it did not hand out', () => {
    const steps = stepper<ServingContext, ExternalEvent>(createServingMachine(happy, variant));
    const [event] = steps.offered(steps.initial);
    const copy = { ...steps.initial };
    expect(event).toBeDefined();
    expect(() => steps.step(copy, event as ExternalEvent)).toThrow(/handed out/);
  });
});

describe('activeNodesOf', () => {
  it('reads the same nodes from an XState snapshot and from the engine', () => {
    const machine = createServingMachine(happy, variant);
    const [xstate] = initialTransition(machine);
    const engine = stepper<ServingContext, ExternalEvent>(machine).initial;
    const plain = (nodes: ReturnType<typeof activeNodesOf>) =>
      nodes.map((n) => ({ path: [...n.path], ownEvents: [...n.ownEvents] }));
    expect(plain(activeNodesOf(engine))).toEqual(plain(activeNodesOf(xstate)));
    expect(events(engine)).toEqual(events(xstate));
    expect(events(engine).length).toBeGreaterThan(0);
  });
});
