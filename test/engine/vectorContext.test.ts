/**
 * Vector contexts (`{ words: Int32Array, ...static fields }`) updated by `vectorAssign`: the fast
 * engine, which runs the updates in place on a per-step copy, finds the states, transitions and
 * shortest violations `xstate/graph` finds (in fingerprint and exact mode, both orders), on a
 * machine with two in-place updates in one transition, a raise between them handled by a third,
 * an in-place entry action, and plain `assign`s mixed in between in-place ones (one keeping
 * `words`, one replacing it);
 * its traces replay through `transition()`; XState itself never mutates an earlier snapshot's
 * words; the words' fingerprint separates vectors that differ in one word; and copies carved
 * from a shared slab are equal to their source and independent of it and of each other.
 */
import {
  type AnyMachineSnapshot,
  assign,
  initialTransition,
  raise,
  setup,
  transition,
} from 'xstate';
import { hashString } from '../../src/engine/fingerprint.ts';
import {
  explore,
  exploreReference,
  hashWords,
  isVectorContext,
  type StateProjection,
  stepper,
  type VectorContext,
  vectorAssign,
  WordSlab,
} from '../../src/engine/index.ts';
import { ExactStore, FingerprintStore } from '../../src/engine/stateStore.ts';
import { inPlaceUpdateOf } from '../../src/engine/vectorContext.ts';

/** A static field: the same object in every state, serialised by `toJSON`. */
const meta = {
  names: ['x', 'y', 'z', 'marks'],
  toJSON: () => 'meta',
};

interface Ctx extends VectorContext {
  readonly words: Int32Array;
  readonly meta: typeof meta;
}

type Ev =
  | { type: 'STEP' }
  | { type: 'MID' }
  | { type: 'ADD'; by: number }
  | { type: 'RESET' }
  | { type: 'DONE' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' };

const X = 0;
const Y = 1;
const Z = 2;
const MARKS = 3;

const toy = setup({
  types: { context: {} as Ctx, events: {} as Ev },
  guards: {
    below: ({ context }, p: { slot: number; max: number }) =>
      (context.words[p.slot] as number) < p.max,
  },
  actions: {
    inc: vectorAssign<Ctx, Ev, { slot: number; max: number }>((c, _args, p) => {
      if ((c.words[p.slot] as number) < p.max) c.words[p.slot] = (c.words[p.slot] as number) + 1;
    }),
    mirror: vectorAssign(({ words }) => {
      words[Z] = (words[X] as number) ^ (words[Y] as number);
    }),
    bump: vectorAssign(({ words }, { event }) => {
      if (event.type === 'ADD') words[Y] = ((words[Y] as number) + event.by) % 3;
    }),
    touch: assign(() => ({})),
    reset: assign(({ context }) => ({ words: Int32Array.of(0, context.words[Y] as number, 0, 0) })),
  },
}).createMachine({
  id: 'toy',
  context: { words: new Int32Array(4), meta },
  initial: 'idle',
  states: {
    idle: {
      on: {
        STEP: {
          guard: { type: 'below', params: { slot: X, max: 3 } },
          target: 'busy',
          actions: [
            { type: 'inc', params: { slot: X, max: 3 } },
            raise({ type: 'MID' }),
            { type: 'inc', params: { slot: MARKS, max: 2 } },
          ],
        },
        RESET: {
          actions: [
            { type: 'inc', params: { slot: Y, max: 2 } },
            'reset',
            { type: 'inc', params: { slot: MARKS, max: 2 } },
          ],
        },
      },
    },
    busy: {
      entry: { type: 'inc', params: ({ context }) => ({ slot: Z, max: context.words[X] ?? 0 }) },
      on: {
        MID: { actions: 'mirror' },
        ADD: { actions: ['bump', 'touch', { type: 'inc', params: { slot: Z, max: 5 } }] },
        DONE: { target: 'idle', actions: 'mirror' },
        // No action: the successor's context is its source's.
        PAUSE: 'paused',
      },
    },
    paused: { on: { RESUME: 'busy' } },
  },
});

const events: Ev[] = [
  { type: 'STEP' },
  { type: 'ADD', by: 1 },
  { type: 'ADD', by: 2 },
  { type: 'RESET' },
  { type: 'DONE' },
  { type: 'PAUSE' },
  { type: 'RESUME' },
];

type Check = (s: StateProjection<Ctx>) => boolean;
const invariants: Record<string, Check> = {
  zBelowFive: (s) => s.context.words[Z] !== 5,
  notXTwoYTwo: (s) => !(s.context.words[X] === 2 && s.context.words[Y] === 2),
  staticMeta: (s) => s.context.meta === meta,
};
const terminalInvariants: Record<string, Check> = {};

const keyOf = (s: { value: unknown; context: Ctx }) =>
  JSON.stringify([s.value, [...s.context.words]]);

const eventsOf = (trace: readonly { event: Ev }[]) => trace.map((t) => JSON.stringify(t.event));

describe('vector contexts', () => {
  const reference = exploreReference(toy, { events, invariants, terminalInvariants });

  it('is explored by xstate/graph with a nontrivial state space and violations', () => {
    expect(reference.stats.states).toBeGreaterThan(20);
    expect(reference.violations.map((v) => v.name).sort()).toEqual(['notXTwoYTwo', 'zBelowFive']);
  });

  const runs = [false, true].flatMap((exact) =>
    (['breadth', 'depth'] as const).flatMap((order) =>
      // Queued states as objects (the default on a queue this short), or all packed; states
      // that `onState` may keep (the default), or not (then a packed state is not copied).
      [undefined, 0].flatMap((packFrom) =>
        [true, false].map((keepsStates) => ({ exact, order, packFrom, keepsStates })),
      ),
    ),
  );
  for (const { exact, order, packFrom, keepsStates } of runs) {
    const queue = `${packFrom === 0 ? ', queue packed' : ''}${keepsStates ? '' : ', states not kept'}`;
    it(`agrees with xstate/graph (${exact ? 'exact' : 'fingerprints'}, ${order} first${queue})`, () => {
      const keys = new Set<string>();
      const refKeys = new Set<string>();
      // The states `onState` is given may be kept, by default: they must not change after the call.
      const kept: { state: { value: unknown; context: Ctx }; key: string }[] = [];
      exploreReference(toy, { events, onState: (s) => refKeys.add(keyOf(s)) });
      const r = explore(toy, {
        events,
        invariants,
        terminalInvariants,
        exact,
        order,
        packFrom,
        keepsStates,
        onState: (s) => {
          keys.add(keyOf(s));
          kept.push({ state: s, key: keyOf(s) });
        },
      });
      expect(keys).toEqual(refKeys);
      if (keepsStates) {
        expect(kept.map(({ state }) => keyOf(state))).toEqual(kept.map(({ key }) => key));
      }
      expect(r.stats.states).toBe(reference.stats.states);
      expect(r.stats.transitions).toBe(reference.stats.transitions);
      expect(r.status).toBe('violation');
      const byName = (v: { name: string }) => v.name;
      expect(r.violations.map(byName).sort()).toEqual(reference.violations.map(byName).sort());
      for (const v of r.violations) {
        const ref = reference.violations.find((w) => w.name === v.name);
        expect(v.trace.length).toBe(ref?.trace.length);
        if (order === 'breadth') expect(eventsOf(v.trace)).toEqual(eventsOf(ref?.trace ?? []));
      }
    });
  }

  it('packs a new state without copying its words out when onState keeps no state', () => {
    // A state whose words a step wrote in place is copied out of the scratch vector only when
    // `onState` may keep it; packed at once otherwise, it is read where the step left it.
    const vectors = (keepsStates: boolean) => {
      const seen = new Set<Int32Array>();
      explore(toy, { events, packFrom: 0, keepsStates, onState: (s) => seen.add(s.context.words) });
      return seen.size;
    };
    expect(vectors(false)).toBeLessThan(vectors(true));
  });

  it('gives traces that replay through transition(), words and all', () => {
    const r = explore(toy, { events, invariants });
    expect(r.violations.length).toBeGreaterThan(0);
    for (const v of r.violations) {
      let [snap] = initialTransition(toy);
      for (const step of v.trace) {
        const before = snap;
        [snap] = transition(toy, snap, step.event);
        expect(snap).not.toBe(before);
        expect(keyOf(snap)).toBe(keyOf(step.state));
        expect(snap.context.meta).toBe(meta);
      }
      expect(invariants[v.name]?.(snap as unknown as StateProjection<Ctx>)).toBe(false);
    }
  });

  it('never mutates an earlier snapshot under XState, nor a state the engine handed out', () => {
    const [s0] = initialTransition(toy);
    const w0 = [...s0.context.words];
    const [s1] = transition(toy, s0, { type: 'STEP' });
    expect([...s0.context.words]).toEqual(w0);
    expect(s1.context.words).not.toBe(s0.context.words);
    expect([...s1.context.words]).toEqual([1, 0, 1, 1]);
    const w1 = [...s1.context.words];
    const [s2] = transition(toy, s1, { type: 'ADD', by: 2 });
    expect([...s1.context.words]).toEqual(w1);
    expect([...s2.context.words]).toEqual([1, 2, 2, 1]);
    expect((s2 as AnyMachineSnapshot).context.meta).toBe(meta);

    const walk = stepper<Ctx, Ev>(toy, { events });
    const e0 = walk.initial;
    const e1 = walk.step(e0, { type: 'STEP' });
    const e2 = e1 && walk.step(e1, { type: 'ADD', by: 2 });
    const e3 = e2 && walk.step(e2, { type: 'ADD', by: 1 });
    expect([...e0.context.words]).toEqual(w0);
    expect(e1 && [...e1.context.words]).toEqual(w1);
    expect(e2 && [...e2.context.words]).toEqual([1, 2, 2, 1]);
    expect(e3 && [...e3.context.words]).toEqual([1, 0, 3, 1]);
    expect(e1?.context.meta).toBe(meta);
  });

  it('marks vectorAssign assignments, and only those', () => {
    const update = (c: Ctx) => {
      c.words[0] = 1;
    };
    const action = vectorAssign<Ctx, Ev>(update);
    const assignment = (action as unknown as { assignment: unknown }).assignment;
    expect(inPlaceUpdateOf(assignment)).toBe(update);
    expect(inPlaceUpdateOf(() => ({}))).toBeUndefined();
    expect(isVectorContext({ words: new Int32Array(1) })).toBe(true);
    expect(isVectorContext({ words: [1] })).toBe(false);
    expect(isVectorContext(null)).toBe(false);
  });

  it('hashes equal words equally and words differing in one place differently', () => {
    const a = new Uint32Array(2);
    const b = new Uint32Array(2);
    const words = Int32Array.from({ length: 64 }, (_, i) => i * 7 - 30);
    hashWords(words, a);
    hashWords(words.slice(), b);
    expect([...b]).toEqual([...a]);
    for (let i = 0; i < words.length; i++) {
      for (const delta of [1, -1, 1 << 31]) {
        const other = words.slice();
        other[i] = (other[i] as number) + delta;
        hashWords(other, b);
        expect(b[0]).not.toBe(a[0]);
        expect(b[1]).not.toBe(a[1]);
      }
    }
    hashWords(words.subarray(0, 63), b);
    expect([...b]).not.toEqual([...a]);
  });

  it('identifies a vector state by configuration and words, not by its static fields', () => {
    const key = 'ab|';
    const config = { key, hash: hashString(key, 1, 2) };
    const otherKey = 'ac|';
    const other = { key: otherKey, hash: hashString(otherKey, 1, 2) };
    for (const store of [new FingerprintStore(true), new ExactStore(true)]) {
      const words = Int32Array.of(3, -1, 7, 0);
      expect(store.add(config, { words, meta }, -1, null)).toBe(0);
      const hint = store.lastHint;
      if (hint !== null) {
        // Hashing a successor from its parent's words gives the hash computed afresh.
        const next = words.slice();
        next[2] = 9;
        const fresh = new FingerprintStore(true);
        const hinted = new FingerprintStore(true);
        expect(fresh.add(config, { words: next, meta }, -1, null)).toBe(0);
        expect(hinted.add(config, { words: next, meta }, -1, hint)).toBe(0);
        expect(hinted.lastHint).toEqual(fresh.lastHint);
      }
      const same = { words: words.slice(), meta: { toJSON: () => 'another' } };
      expect(store.add(config, same, 0, null)).toBe(-1);
      expect(store.find(config, same)).toBe(0);
      for (let i = 0; i < words.length; i++) {
        const changed = words.slice();
        changed[i] = (changed[i] as number) + 1;
        expect(store.find(config, { words: changed, meta })).toBe(-1);
      }
      expect(store.add(other, { words, meta }, 0, null)).toBe(1);
      expect(() => store.add(config, { words: [3, -1, 7, 0] }, 0, null)).toThrow(/words/);
    }
  });

  it('carves copies from slabs that are equal to their source and independent', () => {
    const slab = new WordSlab();
    // 1,000 words a copy: a slab of 4,096 words holds four, so the copies span several slabs.
    const sources = Array.from({ length: 10 }, (_, i) =>
      Int32Array.from({ length: 1000 }, (_, k) => i * 1000 + k),
    );
    const copies = sources.map((s) => slab.copy(s));
    copies.forEach((c, i) => {
      expect(c).not.toBe(sources[i]);
      expect([...c]).toEqual([...(sources[i] as Int32Array)]);
    });
    for (const c of copies) c.fill(-1);
    sources.forEach((s, i) => {
      expect(s[0]).toBe(i * 1000);
    });
    (copies[0] as Int32Array)[999] = 7;
    expect((copies[1] as Int32Array)[0]).toBe(-1);
    // A vector longer than a slab gets a slab of its own size.
    const long = Int32Array.from({ length: 5000 }, (_, k) => k);
    expect([...slab.copy(long)]).toEqual([...long]);
  });

  it('copies each step from its own state, static fields included, while it reuses its buffers', () => {
    // A plain assign replaces the static field: the in-place step after it must copy that
    // state's context, not reuse the copy it made of another state's.
    interface Tagged extends VectorContext {
      readonly words: Int32Array;
      readonly tag: string;
    }
    type TagEvent = { type: 'BUMP' } | { type: 'TAG' };
    const tagged = setup({
      types: { context: {} as Tagged, events: {} as TagEvent },
    }).createMachine({
      context: { words: new Int32Array(2), tag: 'first' },
      on: {
        BUMP: {
          actions: vectorAssign<Tagged, TagEvent>(({ words }) => {
            words[0] = (words[0] as number) + 1;
          }),
        },
        TAG: { actions: assign({ tag: 'second' }) },
      },
    });
    const step = stepper<Tagged, TagEvent>(tagged);
    const s0 = step.initial;
    const s1 = step.step(s0, { type: 'TAG' });
    const a = step.step(s0, { type: 'BUMP' });
    const b = step.step(s1 ?? s0, { type: 'BUMP' });
    expect(s1?.context.tag).toBe('second');
    expect([a?.context.tag, [...(a?.context.words ?? [])]]).toEqual(['first', [1, 0]]);
    expect([b?.context.tag, [...(b?.context.words ?? [])]]).toEqual(['second', [1, 0]]);
    expect(a?.context.words).not.toBe(b?.context.words);
  });
});
