/**
 * The WebAssembly word differ (`wordDiff.ts`) and the incremental hash that uses it: on random
 * vectors of every length up to a few hundred words (padding included), with changes anywhere,
 * extreme values among them, it finds exactly the words that differ, in ascending order, and
 * the hash it yields is the hash of the whole vector, as the JavaScript comparison's is.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { hashWords, hashWordsFrom } from '../../src/engine/vectorContext.ts';
import { WordDiff } from '../../src/engine/wordDiff.ts';
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

describe('WordDiff', () => {
  it('is available on this runtime (WebAssembly SIMD)', () => {
    expect(WordDiff.of(499)).not.toBeNull();
  });

  test.prop([pairArb], { seed, numRuns: 500 })(
    `finds exactly the differing words, in order (fast-check seed ${seed})`,
    ({ x, y }) => {
      const diff = WordDiff.of(x.length) as WordDiff;
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
      const viaWasm = new Uint32Array(2);
      hashWordsFrom(x, parent[0] as number, parent[1] as number, y, viaWasm, WordDiff.of(x.length));
      const viaJs = new Uint32Array(2);
      hashWordsFrom(x, parent[0] as number, parent[1] as number, y, viaJs);
      expect([...viaWasm]).toEqual([...whole]);
      expect([...viaJs]).toEqual([...whole]);
    },
  );

  it('is reused across pairs: each diff sees only its own pair', () => {
    const diff = WordDiff.of(37) as WordDiff;
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
