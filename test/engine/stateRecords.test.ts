/**
 * The packed state records (`stateRecords.ts`) that the parallel search queues and ships: any
 * configuration and any words, extreme values among them, read back exactly, from any offset of
 * a buffer holding other records; the length and index fields say what they should; a
 * successor written from its parent's record (`write` with a `Successor`) is the record written whole, byte for
 * byte; and a serving state packs into a small fraction of its fixed size.
 *
 * The seed is pinned: set KVCHECK_SEED to replay another one.
 */
import { fc, test } from '@fast-check/vitest';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { variantNamed } from '../../machines/variants.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { compileMachine } from '../../src/engine/compiledMachine.ts';
import type { ConfigView, ViewCache } from '../../src/engine/configView.ts';
import { viewsOf } from '../../src/engine/configView.ts';
import { initialState } from '../../src/engine/initialState.ts';
import { packedHash, RecordBytes, StateRecords } from '../../src/engine/stateRecords.ts';
import type { VectorContext } from '../../src/engine/vectorContext.ts';
import { wordDiffer } from '../../src/engine/wordDiff.ts';
import { pinnedSeed } from '../seed.ts';

const seed = pinnedSeed(20261206);

// Zero is weighted up: the writer skips all-zero groups of eight words, and a serving state's
// words are mostly zero.
const word = fc.oneof(
  { arbitrary: fc.constant(0), weight: 6 },
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0x7fffffff, -0x80000000, -1, 127, 128, -64, -65, 16383, 16384),
  fc.integer({ min: -0x80000000, max: 0x7fffffff }),
);

/** A state of a layout: flags (0 or 1 per node), done, words, and an index. */
const stateOf = (nodes: number, words: number) =>
  fc.record({
    flags: fc.array(fc.constantFrom(0, 1), { minLength: nodes, maxLength: nodes }),
    done: fc.boolean(),
    words: fc.array(word, { minLength: words, maxLength: words }),
    index: fc.integer({ min: -1, max: 0x7fffffff }),
  });

/**
 * A layout of up to 300 nodes and `minWords` to 600 words, with what `draw` draws for it and a
 * padding of up to 9 bytes before the first record.
 */
function withLayout<T extends object>(
  minWords: number,
  draw: (nodes: number, words: number) => fc.Arbitrary<T>,
): fc.Arbitrary<T & { nodes: number; words: number; pad: number }> {
  return fc
    .record({
      nodes: fc.integer({ min: 1, max: 300 }),
      words: fc.integer({ min: minWords, max: 600 }),
    })
    .chain(({ nodes, words }) =>
      fc
        .tuple(draw(nodes, words), fc.nat({ max: 9 }))
        .map(([drawn, pad]) => ({ ...drawn, nodes, words, pad })),
    );
}

const layoutArb = withLayout(0, (nodes, words) =>
  fc.record({ states: fc.array(stateOf(nodes, words), { minLength: 1, maxLength: 6 }) }),
);

/** A view cache that makes a view of any flags: what `read` asks of it. */
const anyViews = {
  words: new Int32Array(300),
  doneWord: 0,
  of: (flags: Uint8Array, done: boolean) => ({ flags: flags.slice(), done }) as ConfigView,
} as unknown as ViewCache;

test.prop([layoutArb], { seed, numRuns: 300 })(
  `reads back every state it wrote, from any offset (fast-check seed ${seed})`,
  ({ nodes, words, states, pad }) => {
    const records = new StateRecords(nodes, words);
    const out = new RecordBytes(1);
    out.commit(out.reserve(pad) + pad);
    const starts: number[] = [];
    for (const s of states) {
      const at = out.reserve(records.maxSize);
      starts.push(at);
      const view = { flags: Uint8Array.from(s.flags), done: s.done } as ConfigView;
      out.commit(records.write(out.data, at, s.index, view, Int32Array.from(s.words)));
      expect(records.lengthAt(out.data, at)).toBe(out.length - at);
      expect(records.lengthAt(out.data, at)).toBeLessThanOrEqual(records.maxSize);
    }
    states.forEach((s, k) => {
      const at = starts[k] as number;
      expect(records.indexAt(out.data, at)).toBe(s.index);
      const read = records.read(out.data, at, anyViews, { words: new Int32Array(0) });
      expect(Array.from(read.view.flags)).toEqual(s.flags);
      expect(read.view.done).toBe(s.done);
      expect(Array.from(read.context.words)).toEqual(s.words);
      records.setIndex(out.data, at, 7);
      expect(records.indexAt(out.data, at)).toBe(7);
    });
  },
);

/** A parent state and a successor of it: the parent's words with `edits` written over them. */
const parentAndChild = withLayout(1, (nodes, words) =>
  fc.record({
    parent: stateOf(nodes, words),
    child: stateOf(nodes, 0),
    edits: fc.array(fc.tuple(fc.nat({ max: words - 1 }), word), { maxLength: 12 }),
  }),
);

test.prop([parentAndChild], { seed, numRuns: 300 })(
  `writes a successor from its parent's record byte for byte as it writes it whole (fast-check seed ${seed})`,
  ({ nodes, words, parent, child, edits, pad }) => {
    const records = new StateRecords(nodes, words);
    const chunk = new RecordBytes(1);
    chunk.commit(chunk.reserve(pad) + pad);
    const parentView = { flags: Uint8Array.from(parent.flags), done: parent.done } as ConfigView;
    const at = chunk.append(records, parent.index, parentView, Int32Array.from(parent.words));
    const read = records.read(chunk.data, at, anyViews, { words: new Int32Array(0) });
    const next = read.context.words.slice();
    for (const [i, w] of edits) next[i] = w;
    const differ = wordDiffer(words);
    const count = differ.diff(read.context.words, next);
    const view = { flags: Uint8Array.from(child.flags), done: child.done } as ConfigView;
    const whole = new Uint8Array(records.maxSize);
    const end = records.write(whole, 0, child.index, view, next);
    const changes = { changedWords: differ.changed, changedCount: count };
    const from = new RecordBytes(1);
    from.commit(from.reserve(pad) + pad);
    const parentWords = read.context.words;
    const start = from.append(records, child.index, view, next, { parent: parentWords, changes });
    const written = (out: RecordBytes, at: number) => Array.from(out.data.subarray(at, out.length));
    expect(written(from, start)).toEqual(Array.from(whole.subarray(0, end)));
    // Without the changes, or from words that are not the last record read: written whole.
    for (const successor of [
      { parent: parentWords, changes: { ...changes, changedCount: -1 } },
      { parent: next, changes },
    ]) {
      const out = new RecordBytes(1);
      expect(written(out, out.append(records, child.index, view, next, successor))).toEqual(
        Array.from(whole.subarray(0, end)),
      );
    }
    // Into the buffer the parent's record is in, over it, as a depth-first stack pushes: whole.
    chunk.commit(at);
    const over = chunk.append(records, child.index, view, next, { parent: parentWords, changes });
    expect(written(chunk, over)).toEqual(Array.from(whole.subarray(0, end)));
  },
);

/** A view cache like `anyViews` that counts the views it is asked for. */
function countingViews(): { views: ViewCache; asked: () => number } {
  let asked = 0;
  const views = {
    words: new Int32Array(300),
    doneWord: 0,
    of: (flags: Uint8Array, done: boolean) => {
      asked++;
      return { flags: flags.slice(), done } as ConfigView;
    },
  } as unknown as ViewCache;
  return { views, asked: () => asked };
}

/** The flags of `nodes` nodes whose packed bytes are `bytes` (bit i of byte b: node 8b + i). */
const unpacked = (bytes: readonly number[]) =>
  Uint8Array.from(
    { length: bytes.length * 8 },
    (_, n) => ((bytes[n >>> 3] as number) >>> (n & 7)) & 1,
  );

it('asks the view cache once per configuration, and then reads the view it gave', () => {
  const records = new StateRecords(20, 3);
  const { views, asked } = countingViews();
  const configs = [
    { flags: Uint8Array.from({ length: 20 }, (_, n) => n % 2), done: false },
    { flags: Uint8Array.from({ length: 20 }, (_, n) => n % 2), done: true },
    { flags: Uint8Array.from({ length: 20 }, (_, n) => (n % 3 === 0 ? 1 : 0)), done: false },
  ] as ConfigView[];
  const out = new RecordBytes(1);
  const starts: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const view of configs) {
      starts.push(out.append(records, 0, view, Int32Array.of(round, 0, -round)));
    }
  }
  const read = starts.map((at) => records.read(out.data, at, views, { words: new Int32Array(0) }));
  expect(asked()).toBe(3);
  read.forEach((state, k) => {
    const config = configs[k % 3] as ConfigView;
    expect(state.view).toBe(read[k % 3]?.view);
    expect(Array.from(state.view.flags)).toEqual(Array.from(config.flags));
    expect(state.view.done).toBe(config.done);
  });
  // Another view cache (another machine's) is asked afresh.
  const other = countingViews();
  records.read(out.data, starts[0] as number, other.views, { words: new Int32Array(0) });
  expect(other.asked()).toBe(1);
});

it('tells apart two configurations whose packed flags hash alike', () => {
  const a = [195, 50, 18, 111, 81, 99];
  const b = [203, 226, 210, 203, 157, 171];
  expect(packedHash(Uint8Array.from(a), 0, 6, false)).toBe(
    packedHash(Uint8Array.from(b), 0, 6, false),
  );
  const records = new StateRecords(48, 1);
  const { views, asked } = countingViews();
  const out = new RecordBytes(1);
  const atA = out.append(records, 0, { flags: unpacked(a), done: false }, Int32Array.of(1));
  const atB = out.append(records, 1, { flags: unpacked(b), done: false }, Int32Array.of(2));
  for (let round = 0; round < 2; round++) {
    const readA = records.read(out.data, atA, views, { words: new Int32Array(0) });
    const readB = records.read(out.data, atB, views, { words: new Int32Array(0) });
    expect(Array.from(readA.view.flags)).toEqual(Array.from(unpacked(a)));
    expect(Array.from(readB.view.flags)).toEqual(Array.from(unpacked(b)));
  }
  expect(asked()).toBe(2);
});

it('refuses a layout whose records could pass 64 KiB', () => {
  expect(() => new StateRecords(10, 20_000)).toThrow(/exceed 64 KiB/);
});

it('packs the initial state of incident-large into a tenth of its fixed size or less', () => {
  const machine = createServingMachine(incidentLarge, variantNamed('fixed'));
  const compiled = compileMachine(machine);
  const views = viewsOf(compiled);
  const initial = initialState(machine, compiled, views, undefined);
  const context = initial.context as VectorContext;
  const words = context.words;
  const records = new StateRecords(compiled.size, words.length);
  const out = new Uint8Array(records.maxSize);
  const length = records.write(out, 0, 0, initial.view, words);
  const fixed = 4 * (2 + Math.ceil(compiled.size / 4) + words.length);
  expect(length * 10).toBeLessThanOrEqual(fixed);
  const read = records.read(out, 0, views, { ...context, words: new Int32Array(0) });
  expect(read.view).toBe(initial.view);
  expect(Array.from(read.context.words)).toEqual(Array.from(words));
});
