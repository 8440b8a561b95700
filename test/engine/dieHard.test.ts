/**
 * TLA+'s DieHard (the 3- and 5-gallon jugs) as an XState machine with payload events. Known
 * answers: 16 reachable (small, big) pairs, and the 4-gallon state is 6 pours away.
 */
import { assign, initialTransition, setup, transition } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { explore } from '../../src/engine/index.ts';
import { missing, oracle } from './graphOracle.ts';

type Jug = 'small' | 'big';
type JugEvent =
  | { type: 'FILL'; jug: Jug }
  | { type: 'EMPTY'; jug: Jug }
  | { type: 'POUR'; from: Jug; to: Jug };
interface Jugs {
  small: number;
  big: number;
}

const capacity: Jugs = { small: 3, big: 5 };

const dieHard = setup({
  types: { context: {} as Jugs, events: {} as JugEvent },
  guards: {
    hasRoom: ({ context, event }) => 'jug' in event && context[event.jug] < capacity[event.jug],
    hasWater: ({ context, event }) => 'jug' in event && context[event.jug] > 0,
    canPour: ({ context, event }, p: { min: number }) =>
      event.type === 'POUR' &&
      context[event.from] >= p.min &&
      context[event.to] < capacity[event.to],
  },
  actions: {
    fill: assign(({ context, event }) =>
      event.type === 'FILL' ? { ...context, [event.jug]: capacity[event.jug] } : context,
    ),
    pour: assign(({ context, event }) => {
      if (event.type !== 'POUR') return context;
      const moved = Math.min(context[event.from], capacity[event.to] - context[event.to]);
      return {
        ...context,
        [event.from]: context[event.from] - moved,
        [event.to]: context[event.to] + moved,
      };
    }),
  },
}).createMachine({
  id: 'dieHard',
  context: { small: 0, big: 0 },
  initial: 'pouring',
  states: {
    pouring: {
      on: {
        FILL: { guard: 'hasRoom', actions: 'fill' },
        EMPTY: {
          guard: 'hasWater',
          actions: assign(({ context, event }) =>
            event.type === 'EMPTY' ? { ...context, [event.jug]: 0 } : context,
          ),
        },
        POUR: { guard: { type: 'canPour', params: { min: 1 } }, actions: 'pour' },
      },
    },
  },
});

const events: JugEvent[] = [
  { type: 'FILL', jug: 'small' },
  { type: 'FILL', jug: 'big' },
  { type: 'EMPTY', jug: 'small' },
  { type: 'EMPTY', jug: 'big' },
  { type: 'POUR', from: 'small', to: 'big' },
  { type: 'POUR', from: 'big', to: 'small' },
];

const notFour = { bigIsNotFour: (s: { context: Jugs }) => s.context.big !== 4 };
const keyOf = (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]);

describe('DieHard jugs', () => {
  it('reaches the 16 states getAdjacencyMap reaches', () => {
    const keys = new Set<string>();
    const r = explore(dieHard, { events, onState: (s) => keys.add(keyOf(s)) });
    const graph = oracle(dieHard, events, keyOf);
    expect(r.status).toBe('ok');
    expect(r.stats.states).toBe(16);
    expect(graph.keys.size).toBe(16);
    expect(missing(graph.keys, keys)).toEqual([]);
    expect(r.stats.transitions).toBe(graph.transitions);
  });

  it('finds the 4-gallon state in 6 steps, and the trace replays through transition()', () => {
    const r = explore(dieHard, { events, invariants: notFour });
    expect(r.status).toBe('violation');
    const [v] = r.violations;
    expect(v?.name).toBe('bigIsNotFour');
    expect(v?.trace).toHaveLength(6);
    let [snap] = initialTransition(dieHard);
    for (const step of v?.trace ?? []) {
      [snap] = transition(dieHard, snap, step.event);
      expect(snap.context).toEqual(step.state.context);
    }
    expect(snap.context.big).toBe(4);
  });

  it('agrees in exact mode and with the array given as a function', () => {
    const r = explore(dieHard, { events: () => events, exact: true, invariants: notFour });
    expect(r.stats.states).toBe(16);
    expect(r.violations[0]?.trace).toHaveLength(6);
    expect(r.collisionProbability).toBeUndefined();
  });

  it('offers exactly the listed events, as getAdjacencyMap does', () => {
    const only: JugEvent[] = [{ type: 'FILL', jug: 'big' }];
    const keys = new Set<string>();
    const r = explore(dieHard, { events: only, onState: (s) => keys.add(keyOf(s)) });
    const graph = oracle(dieHard, only, keyOf);
    expect(r.stats.states).toBe(2);
    expect(graph.keys).toEqual(keys);
  });

  it('offers each handled type as a bare event without `events`, as getAdjacencyMap does', () => {
    const r = explore(dieHard);
    const graph = getAdjacencyMap(dieHard, {});
    expect(r.stats.states).toBe(Object.keys(graph).length);
    expect(r.stats.states).toBe(1);
  });
});
