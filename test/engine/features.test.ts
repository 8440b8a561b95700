/**
 * Subset features the random machines do not draw, each checked against `getAdjacencyMap` on a
 * small hand-written machine: wildcard and partial descriptors (which also match raised and done
 * events), `stateIn` with a state value, guard and action params given as functions, a named
 * guard that is itself a combinator, and `onDone` reacting to a region's completion.
 */
import { and, assign, createMachine, raise, setup, stateIn } from 'xstate';
import { explore } from '../../src/engine/index.ts';
import { type KeyOf, oracle } from './graphOracle.ts';

const keyOf: KeyOf = (s) => JSON.stringify([s.value, s.context, s.status ?? 'active']);

function agrees(machine: Parameters<typeof explore>[0], events: { type: string }[]): number {
  const keys = new Set<string>();
  const r = explore(machine, { events, onState: (s) => keys.add(keyOf(s)) });
  const graph = oracle(machine, events, keyOf);
  expect(keys).toEqual(graph.keys);
  expect(r.stats.transitions).toBe(graph.transitions);
  return r.stats.states;
}

describe('features outside the random generator', () => {
  it('wildcard and partial descriptors, after exact ones, longest first', () => {
    const bump = (by: number) =>
      assign({ n: ({ context }: { context: { n: number } }) => (context.n + by) % 7 });
    const machine = createMachine({
      id: 'w',
      context: { n: 0 },
      initial: 'a',
      states: {
        a: {
          on: {
            'cmd.go': { target: 'b', actions: bump(1) },
            'cmd.*': { actions: bump(2) },
            '*': {
              guard: ({ context }) => context.n < 4,
              actions: [bump(3), raise({ type: 'inner' })],
            },
          },
        },
        b: {
          initial: 'x',
          states: { x: { on: { '*': 'y' } }, y: { type: 'final' } },
          on: { 'xstate.done.state.w.b': { target: 'a', actions: bump(4) } },
        },
      },
    });
    const n = agrees(machine, [{ type: 'cmd.go' }, { type: 'cmd.stop' }, { type: 'other' }]);
    expect(n).toBeGreaterThan(4);
  });

  it('stateIn with a state value, function params, and a named combinator guard', () => {
    const machine = setup({
      types: { context: {} as { n: number }, events: {} as { type: 'E' } | { type: 'F' } },
      guards: {
        below: ({ context }, p: { max: number }) => context.n < p.max,
        inLeftB: stateIn({ left: 'b' }),
        both: and(['inLeftB', { type: 'below', params: { max: 3 } }]),
      },
      actions: {
        add: assign(({ context }, p: { by: number }) => ({ n: (context.n + p.by) % 5 })),
      },
    }).createMachine({
      id: 'p',
      context: { n: 0 },
      type: 'parallel',
      states: {
        left: { initial: 'a', states: { a: { on: { E: 'b' } }, b: { on: { E: 'a' } } } },
        right: {
          on: {
            F: [
              {
                guard: 'both',
                actions: { type: 'add', params: ({ context }) => ({ by: context.n + 1 }) },
              },
              {
                guard: { type: 'below', params: ({ context }) => ({ max: context.n + 2 }) },
                actions: { type: 'add', params: { by: 2 } },
              },
            ],
          },
        },
      },
    });
    expect(agrees(machine, [{ type: 'E' }, { type: 'F' }])).toBeGreaterThan(4);
  });

  it('onDone when every region of a parallel state is final', () => {
    const machine = setup({ types: { context: {} as { done: number } } }).createMachine({
      id: 'd',
      context: { done: 0 },
      initial: 'work',
      states: {
        work: {
          type: 'parallel',
          states: {
            r1: { initial: 'a', states: { a: { on: { E1: 'f' } }, f: { type: 'final' } } },
            r2: { initial: 'a', states: { a: { on: { E2: 'f' } }, f: { type: 'final' } } },
          },
          onDone: {
            target: 'work',
            reenter: true,
            guard: ({ context }) => context.done < 2,
            actions: assign({ done: ({ context }) => context.done + 1 }),
          },
        },
      },
    });
    expect(agrees(machine, [{ type: 'E1' }, { type: 'E2' }])).toBe(10);
  });
});
