/**
 * The lists the interpreter reuses between steps (`reusedList.ts`), against plain arrays: used
 * again and again, emptied, refilled shorter and longer, a `ReusedList` holds what an array
 * would; a `NodeList` grows past its first storage, `sortUnique` gives the distinct nodes in
 * ascending order (what a `Set` then a sort would give: the order microsteps exit and enter
 * states in), and `meets` says whether two lists share a node. Each run reuses one list for
 * every round, as the interpreter does.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { NodeList, ReusedList } from '../../src/engine/reusedList.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed(20261208);

/** Rounds of node lists: short ones with repeats, and now and then one past 32 entries. */
const roundsArb = fc.array(
  fc.oneof(
    fc.array(fc.nat({ max: 12 }), { maxLength: 8 }),
    fc.array(fc.nat({ max: 400 }), { minLength: 30, maxLength: 90 }),
  ),
  { minLength: 1, maxLength: 12 },
);

function filled(xs: readonly number[], list = new NodeList()): NodeList {
  list.length = 0;
  for (const x of xs) list.push(x);
  return list;
}

function entries(list: NodeList): number[] {
  return Array.from(list.at.subarray(0, list.length));
}

describe('NodeList', () => {
  test.prop([roundsArb], { seed, numRuns: 300 })(
    `sorts ascending and drops repeats, round after round (fast-check seed ${seed})`,
    (rounds) => {
      const list = new NodeList();
      for (const xs of rounds) {
        filled(xs, list);
        expect(entries(list)).toEqual(xs);
        list.sortUnique();
        expect(entries(list)).toEqual([...new Set(xs)].sort((a, b) => a - b));
      }
    },
  );

  test.prop([roundsArb, roundsArb], { seed, numRuns: 300 })(
    `meets another list exactly when they share a node (fast-check seed ${seed})`,
    (left, right) => {
      const a = new NodeList();
      const b = new NodeList();
      for (let i = 0; i < Math.min(left.length, right.length); i++) {
        const xs = left[i] as number[];
        const ys = right[i] as number[];
        filled(xs, a);
        filled(ys, b);
        const shared = xs.some((x) => ys.includes(x));
        expect(a.meets(b)).toBe(shared);
        expect(b.meets(a)).toBe(shared);
      }
    },
  );

  it('meets nothing when either list is empty, and sorts an empty list to empty', () => {
    const empty = new NodeList();
    const some = filled([3, 1]);
    expect(empty.meets(some)).toBe(false);
    expect(some.meets(empty)).toBe(false);
    empty.sortUnique();
    expect(empty.length).toBe(0);
  });
});

describe('ReusedList', () => {
  test.prop([fc.array(fc.array(fc.integer(), { maxLength: 40 }), { maxLength: 10 })], {
    seed,
    numRuns: 300,
  })(`holds what an array would, cleared and refilled (fast-check seed ${seed})`, (rounds) => {
    const list = new ReusedList<{ n: number }>();
    for (const xs of rounds) {
      list.clear();
      const items = xs.map((n) => ({ n }));
      for (const item of items) list.push(item);
      expect(list.length).toBe(items.length);
      expect(Array.from({ length: list.length }, (_, i) => list.at(i))).toEqual(items);
      const kept = items.filter((item) => item.n % 3 !== 0);
      list.retain((item) => item.n % 3 !== 0);
      expect(Array.from({ length: list.length }, (_, i) => list.at(i))).toEqual(kept);
    }
  });
});
