/**
 * The word differs (`wordDiff.ts`), WebAssembly and JavaScript, and the incremental hash that
 * uses them: on random vectors of every length up to a few hundred words (padding included),
 * with changes anywhere, extreme values among them, each finds exactly the words that differ,
 * in ascending order, and the hash it yields is the hash of the whole vector.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { hashWords, hashWordsFrom } from '../../src/engine/vectorContext.ts';
import {
  ScriptWordDiff,
  WordDiff,
  type WordDiffer,
  wordDiffer,
} from '../../src/engine/wordDiff.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed(20261206);

const word = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0x7fffffff, -0x80000000, -1),
  fc.integer({ min: -0x80000000, max: 0x7fffffff }),
);

/** A vector and a copy of it with some words changed (or none). */
const pairArb = fc
  .integer({ min: 0, max: 300 })
  .chain((n) =>
    fc.record({
      parent: fc.array(word, { minLength: n, maxLength: n }),
      edits: fc.array(fc.tuple(fc.nat({ max: Math.max(0, n - 1) }), word), {
        maxLength: n === 0 ? 0 : 12,
      }),
    }),
  )
  .map(({ parent, edits }) => {
    const x = Int32Array.from(parent);
    const y = x.slice();
    for (const [i, w] of edits) y[i] = w;
    return { x, y };
  });

function differing(x: Int32Array, y: Int32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) out.push(i);
  return out;
}

it('uses WebAssembly on this runtime, which has SIMD', () => {
  expect(WordDiff.of(499)).not.toBeNull();
  expect(wordDiffer(499)).toBeInstanceOf(WordDiff);
});

const differs: [string, (length: number) => WordDiffer][] = [
  ['WebAssembly', (length) => WordDiff.of(length) as WordDiff],
  ['JavaScript', (length) => new ScriptWordDiff(length)],
];

describe.each(differs)('the %s word differ', (_name, differOf) => {
  test.prop([pairArb], { seed, numRuns: 500 })(
    `finds exactly the differing words, in order (fast-check seed ${seed})`,
    ({ x, y }) => {
      const diff = differOf(x.length);
      const count = diff.diff(x, y);
      expect(Array.from(diff.changed.subarray(0, count))).toEqual(differing(x, y));
      // The differ's memory holds the last pair only: the reverse pair gives the same words.
      expect(diff.diff(y, x)).toBe(count);
    },
  );

  test.prop([pairArb], { seed, numRuns: 500 })(
    `gives the incremental hash the whole vector's hash (fast-check seed ${seed})`,
    ({ x, y }) => {
      const parent = new Uint32Array(2);
      hashWords(x, parent);
      const whole = new Uint32Array(2);
      hashWords(y, whole);
      const from = new Uint32Array(2);
      hashWordsFrom(x, parent[0] as number, parent[1] as number, y, from, differOf(x.length));
      expect([...from]).toEqual([...whole]);
    },
  );

  it('is reused across pairs: each diff sees only its own pair', () => {
    const diff = differOf(37);
    const base = Int32Array.from({ length: 37 }, (_, i) => i);
    for (let i = 0; i < 37; i++) {
      const other = base.slice();
      other[i] = -1;
      expect(diff.diff(base, other)).toBe(1);
      expect(diff.changed[0]).toBe(i);
    }
    expect(diff.diff(base, base.slice())).toBe(0);
  });
});
