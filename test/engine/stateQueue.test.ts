/**
 * The search's queues of discovered states (`stateQueue.ts`): the packed queue, and the vector
 * queue that holds objects up to a length and packs the rest, give back, first
 * in first out and last in first out, the view, words, index, depth and words' hash of every
 * state pushed, pushes between takes included, whether the hash came with the state or not; it
 * keeps no reference to the words it was given. The object queue takes states in either order.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import type { ConfigView } from '../../src/engine/configView.ts';
import {
  type Item,
  ItemQueue,
  PackedQueue,
  type StateQueue,
  VectorQueue,
} from '../../src/engine/stateQueue.ts';
import { hashWords } from '../../src/engine/vectorContext.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed(20261206);

/** What a queue is asked to do: push a state of `words`, or take one (shift or pop). */
type Op = { push: number[] } | { take: true };

const width = 12;
const word = fc.oneof(fc.constant(0), fc.integer({ min: -200, max: 200 }), fc.integer());
const opsArb = fc.array(
  fc.oneof(
    fc.record({ push: fc.array(word, { minLength: width, maxLength: width }) }),
    fc.record({ take: fc.constant(true as const) }),
  ),
  { maxLength: 60 },
);

/** Distinct views, as the engine's interned ones are: the queue must give back the same. */
const views = Array.from({ length: 5 }, (_, k) => ({ flags: new Uint8Array([k]), done: false }));
const viewOf = (k: number) => views[k % views.length] as unknown as ConfigView;

/** What a taken item says, copied out (its words are valid until the next take). */
function seen(item: Item | undefined) {
  if (item === undefined) return undefined;
  const words = (item.context as { words: Int32Array }).words;
  const tree = item.tree as { words: Int32Array; a: number; b: number };
  return {
    view: item.view,
    words: Array.from(words),
    index: item.index,
    depth: item.depth,
    hash: [tree.a, tree.b],
    hintWords: tree.words === words,
  };
}

/**
 * Runs `ops` on `queue`, taking first in first out or last in first out; `copies`: the queue
 * keeps no reference to the words it is given, so the test overwrites them after each push.
 */
function run(queue: StateQueue, ops: readonly Op[], lifo: boolean, copies: boolean) {
  const out: ReturnType<typeof seen>[] = [];
  let n = 0;
  for (const op of ops) {
    if ('push' in op) {
      const words = Int32Array.from(op.push);
      const hash = new Uint32Array(2);
      hashWords(words, hash);
      // The packed queue hashes the words when the store's hint does not come with them (every
      // other push here); an object keeps the hint it came with, which the test always gives.
      const given = { words, a: hash[0] as number, b: hash[1] as number };
      const hint = copies && n % 2 === 1 ? null : given;
      queue.push({ view: viewOf(n), context: { words }, index: n, depth: 3 * n, tree: hint });
      if (copies) words.fill(-7);
      n++;
    } else out.push(seen(lifo ? queue.pop() : queue.shift()));
    expect(queue.length).toBeGreaterThanOrEqual(0);
  }
  return out;
}

/** The model: items as plain objects, hashed as the store would hash them. */
function expected(ops: readonly Op[], lifo: boolean) {
  const q: NonNullable<ReturnType<typeof seen>>[] = [];
  const out: ReturnType<typeof seen>[] = [];
  let n = 0;
  for (const op of ops) {
    if ('push' in op) {
      const hash = new Uint32Array(2);
      hashWords(Int32Array.from(op.push), hash);
      q.push({
        view: viewOf(n),
        words: op.push,
        index: n,
        depth: 3 * n,
        hash: [hash[0] as number, hash[1] as number],
        hintWords: true,
      });
      n++;
    } else out.push(lifo ? q.pop() : q.shift());
  }
  return out;
}

const queues: [string, () => StateQueue, boolean][] = [
  ['packed queue', () => new PackedQueue({ words: new Int32Array(width) }), true],
  // Three objects, then packed: the property's runs cross the limit both ways.
  ['vector queue', () => new VectorQueue({ words: new Int32Array(width) }, 3), false],
];

describe.each(
  queues.flatMap(([name, make, copies]) => [
    [name, 'first in, first out', make, copies, false] as const,
    [name, 'last in, first out', make, copies, true] as const,
  ]),
)('the %s, %s', (_name, _order, make, copies, lifo) => {
  test.prop([opsArb], { seed, numRuns: 300 })(
    `gives back every state pushed, in order (fast-check seed ${seed})`,
    (ops) => {
      const queue = make();
      const got = run(queue, ops, lifo, copies);
      const want = expected(ops, lifo);
      expect(got.map((g) => g && { ...g, hash: g.hash.map((h) => h >>> 0) })).toEqual(
        want.map((w) => w && { ...w, hash: w.hash.map((h) => h >>> 0) }),
      );
    },
  );
});

it('the object queue gives states back in either order', () => {
  const queue = new ItemQueue();
  const item = (index: number): Item => ({
    view: viewOf(index),
    context: { index },
    index,
    depth: index,
    tree: null,
  });
  for (const i of [0, 1, 2]) queue.push(item(i));
  expect(queue.length).toBe(3);
  expect(queue.shift()?.index).toBe(0);
  expect(queue.pop()?.index).toBe(2);
  expect(queue.pop()?.index).toBe(1);
  expect(queue.length).toBe(0);
  expect(queue.shift()).toBeUndefined();
  expect(queue.pop()).toBeUndefined();
});
