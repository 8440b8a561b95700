/**
 * `ExploreOptions.reads`: an invariant that names what it reads is checked on a new state only
 * when the step changed one of those words or state nodes. On a small vector machine (two
 * counters in words 0 and 1, a flag region toggling between `a` and `b`), declared reads give the
 * same result as checking every state, with fewer calls; a read left out hides the violation
 * (which is what `test/invariants/reads.test.ts` guards against for kvcheck's properties); exact
 * mode and plain contexts check every state; and a bad declaration is refused by name.
 */
import { describe, expect, test } from 'vitest';
import { setup } from 'xstate';
import {
  type ExploreOptions,
  explore,
  type InvariantReads,
  type StateProjection,
  type VectorContext,
  vectorAssign,
} from '../../src/engine/index.ts';

type Ev = { type: 'INC_X' } | { type: 'INC_Y' } | { type: 'TOGGLE' };

const counters = setup({
  types: { context: {} as VectorContext, events: {} as Ev },
  guards: {
    below: ({ context }, p: { word: number }) => (context.words[p.word] as number) < 3,
  },
  actions: {
    inc: vectorAssign<VectorContext, Ev, { word: number }>(({ words }, _args, p) => {
      words[p.word] = (words[p.word] as number) + 1;
    }),
  },
}).createMachine({
  id: 'counters',
  type: 'parallel',
  context: { words: new Int32Array(2) },
  states: {
    counter: {
      on: {
        INC_X: {
          guard: { type: 'below', params: { word: 0 } },
          actions: { type: 'inc', params: { word: 0 } },
        },
        INC_Y: {
          guard: { type: 'below', params: { word: 1 } },
          actions: { type: 'inc', params: { word: 1 } },
        },
      },
    },
    flag: {
      initial: 'a',
      states: { a: { on: { TOGGLE: 'b' } }, b: { on: { TOGGLE: 'a' } } },
    },
  },
});

type Snap = StateProjection<VectorContext>;
const events: Ev[] = [{ type: 'INC_X' }, { type: 'INC_Y' }, { type: 'TOGGLE' }];
const inB = (s: Snap) => (s.value as { flag: string }).flag === 'b';

/** The invariants, counting their calls into `calls`. */
function invariants(calls: Record<string, number>) {
  const counted = (name: string, holds: (s: Snap) => boolean) => (s: Snap) => {
    calls[name] = (calls[name] ?? 0) + 1;
    return holds(s);
  };
  return {
    xBelowThree: counted('xBelowThree', (s) => (s.context.words[0] as number) < 3),
    notTwoYInB: counted('notTwoYInB', (s) => !(s.context.words[1] === 2 && inB(s))),
  };
}

const rightReads: Record<string, InvariantReads> = {
  xBelowThree: { words: [0], states: [] },
  notTwoYInB: { words: [1], states: ['flag'] },
};

function run(extra: Partial<ExploreOptions<VectorContext, Ev>>) {
  const calls: Record<string, number> = {};
  const r = explore<VectorContext, Ev>(counters, {
    events,
    invariants: invariants(calls),
    ...extra,
  });
  const found = Object.fromEntries(
    r.violations.map((v) => [v.name, v.trace.map((t) => t.event.type)]),
  );
  return { stats: r.stats, found, calls };
}

describe('reads: an invariant is checked where the step changed what it reads', () => {
  test('declared reads give the same states, violations and traces, with fewer calls', () => {
    for (const order of ['breadth', 'depth'] as const) {
      const all = run({ order });
      const some = run({ order, reads: rightReads });
      expect(all.found).toEqual({
        xBelowThree: ['INC_X', 'INC_X', 'INC_X'],
        notTwoYInB: ['INC_Y', 'INC_Y', 'TOGGLE'],
      });
      expect(some.found).toEqual(all.found);
      expect([some.stats.states, some.stats.transitions]).toEqual([
        all.stats.states,
        all.stats.transitions,
      ]);
      expect(all.stats.states).toBe(32);
      for (const name of ['xBelowThree', 'notTwoYInB']) {
        expect(some.calls[name]).toBeLessThan(all.calls[name] as number);
      }
    }
  });

  test('a word left out hides a violation; so does a state node left out', () => {
    // Declared to read nothing, x's invariant is checked on the initial state alone.
    const noX = run({ reads: { ...rightReads, xBelowThree: { words: [], states: [] } } });
    expect(Object.keys(noX.found)).toEqual(['notTwoYInB']);
    expect(noX.calls.xBelowThree).toBe(1);
    // Declared to read y instead of x, it is found late: on a step that changed y after x did.
    const late = run({ reads: { ...rightReads, xBelowThree: { words: [1], states: [] } } });
    expect(late.found.xBelowThree).toEqual(['INC_X', 'INC_X', 'INC_X', 'INC_Y']);
    const noFlag = run({ reads: { ...rightReads, notTwoYInB: { words: [1], states: [] } } });
    // y reaches 2 while the flag is `a`; the TOGGLE to `b` changes no word.
    expect(Object.keys(noFlag.found)).toEqual(['xBelowThree']);
  });

  test('exact mode compares no words, so it checks every state', () => {
    const wrong = {
      xBelowThree: { words: [1], states: [] },
      notTwoYInB: { words: [], states: [] },
    };
    const exact = run({ exact: true, reads: wrong });
    expect(Object.keys(exact.found).sort()).toEqual(['notTwoYInB', 'xBelowThree']);
  });

  test('a bad declaration is refused by name', () => {
    const bad = (reads: Record<string, InvariantReads>) => () => run({ reads });
    expect(bad({ xBelow: { words: [0], states: [] } })).toThrow(
      'explore: reads names xBelow, which is not an invariant',
    );
    expect(bad({ xBelowThree: { words: [0], states: ['flag.c'] } })).toThrow(
      'explore: reads of xBelowThree: the machine has no state node flag.c',
    );
    expect(bad({ xBelowThree: { words: [-1], states: [] } })).toThrow(
      'explore: reads of xBelowThree: -1 is not a word index',
    );
  });
});
