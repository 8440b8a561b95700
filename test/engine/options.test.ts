/**
 * `explore`'s options and result fields: exact keys agree with fingerprints, bounds (states,
 * seconds, memory) end in `incomplete` (never `ok`), the first-violation stop keeps traces
 * shortest, the depth-first order finds the same states and (shortened) traces, callbacks see
 * every state and transition, input reaches the context factory, an aborted signal ends the
 * search in `incomplete` (interrupted), `exploreAsync` finds exactly what `explore` finds, and
 * an option `ExploreOptions` does not have is refused by name, by both engines.
 */
import { assign, setup } from 'xstate';
import { properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import { incident } from '../../scenarios/index.ts';
import { incidentLarge } from '../../scenarios/large.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { explore, exploreAsync, exploreReference, type Progress } from '../../src/engine/index.ts';
import type { ExploreOptions, StateProjection } from '../../src/engine/types.ts';

type Check = (s: StateProjection<ServingContext>) => boolean;
const invariants: Record<string, Check> = {};
const terminalInvariants: Record<string, Check> = {};
for (const [name, p] of Object.entries(properties)) {
  (p.kind === 'terminal' ? terminalInvariants : invariants)[name] = (s) => p(s as ServingState);
}

const machine = createServingMachine(incident, variants[0] as Variant);
const run = (extra: Partial<ExploreOptions<ServingContext, ExternalEvent>> = {}) =>
  explore<ServingContext, ExternalEvent>(machine, {
    events: servingEvents(['a1', 'b1']),
    invariants,
    terminalInvariants,
    ...extra,
  });
const lengths = (r: ReturnType<typeof run>) =>
  new Map(r.violations.map((v) => [v.name, v.trace.length]));

describe('explore options', () => {
  let full: ReturnType<typeof run>;
  beforeAll(() => {
    full = run();
  });

  it('reports the exhaustive run of incident × incident-2026', () => {
    expect(full.status).toBe('violation');
    expect(full.bound).toBeUndefined();
    expect(full.stats.states).toBe(2195);
    expect(full.stats.bytesPerState).toBeLessThanOrEqual(64);
    expect(full.collisionProbability).toBeLessThan(1e-12);
    expect([...lengths(full).keys()]).toEqual([
      'rejectedNeverHandedOff',
      'rejectedHoldsNothing',
      'noCrossTenantRead',
      'coverageBeforeCommit',
      'errorReachesClient',
    ]);
  });

  it('finds the same states and traces with exact keys', () => {
    const exact = run({ exact: true });
    expect(exact.stats).toMatchObject({ states: 2195, transitions: full.stats.transitions });
    expect(lengths(exact)).toEqual(lengths(full));
    expect(exact.collisionProbability).toBeUndefined();
  });

  it('ends in incomplete at maxStates, or in violation if one was found within the bound', () => {
    const small = run({ maxStates: 5 });
    expect(small.status).toBe('incomplete');
    expect(small.bound).toEqual({ reason: 'maxStates', limit: 5 });
    expect(small.stats.states).toBe(5);
    const mid = run({ maxStates: 1500 });
    expect(mid.status).toBe('violation');
    expect(mid.bound?.reason).toBe('maxStates');
    expect(lengths(mid).get('rejectedNeverHandedOff')).toBe(7);
  });

  it('ends in incomplete at maxSeconds', () => {
    const r = run({ maxSeconds: 1e-9, invariants: {}, terminalInvariants: {} });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxSeconds', limit: 1e-9 });
  });

  it('ends in incomplete once its signal is aborted, with what it explored', () => {
    const stop = new AbortController();
    let seen = 0;
    const r = run({
      invariants: {},
      terminalInvariants: {},
      progressIntervalMs: 0,
      onProgress: (p) => {
        seen = p.states;
        if (p.states >= 200) stop.abort();
      },
      signal: stop.signal,
    });
    expect(r.status).toBe('incomplete');
    expect(r.bound?.reason).toBe('interrupted');
    expect(r.bound?.limit).toBeGreaterThanOrEqual(0);
    expect(r.stats.states).toBeGreaterThanOrEqual(seen);
    expect(r.stats.states).toBeLessThan(full.stats.states);
    const early = new AbortController();
    early.abort();
    const none = run({ signal: early.signal, invariants: {}, terminalInvariants: {} });
    expect(none.status).toBe('incomplete');
    expect(none.stats.states).toBeLessThan(full.stats.states);
  });

  it('explores in time slices with exploreAsync, finding exactly what explore finds', async () => {
    for (const order of ['breadth', 'depth'] as const) {
      const sync = run({ order });
      const sliced = await exploreAsync<ServingContext, ExternalEvent>(
        machine,
        { events: servingEvents(['a1', 'b1']), invariants, terminalInvariants, order },
        1,
      );
      const { ms: _a, ...syncStats } = sync.stats;
      const { ms: _b, ...slicedStats } = sliced.stats;
      expect(slicedStats).toEqual(syncStats);
      expect(sliced.status).toBe(sync.status);
      expect(sliced.violations).toEqual(sync.violations);
    }
  });

  it('lets a timer interrupt exploreAsync on a space too large to finish', async () => {
    const large = createServingMachine(
      incidentLarge,
      variants.find((v) => v.name === 'fixed') as Variant,
    );
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 200);
    const r = await exploreAsync<ServingContext, ExternalEvent>(large, {
      events: servingEvents(incidentLarge.requests.map((q) => q.id)),
      order: 'depth',
      signal: stop.signal,
    });
    clearTimeout(timer);
    expect(r.status).toBe('incomplete');
    expect(r.bound?.reason).toBe('interrupted');
    expect(r.stats.states).toBeGreaterThan(1);
  });

  it('ends in incomplete at maxMemory, with what it explored', () => {
    const r = run({ maxMemory: 1, invariants: {}, terminalInvariants: {} });
    expect(r.status).toBe('incomplete');
    expect(r.bound).toEqual({ reason: 'maxMemory', limit: 1 });
    expect(r.stats.states).toBeGreaterThan(1);
    expect(r.stats.states).toBeLessThan(full.stats.states);
    const roomy = run({ maxMemory: 1e6 });
    expect(roomy.bound).toBeUndefined();
    expect(roomy.stats.states).toBe(full.stats.states);
  });

  it('counts array buffers (the packed queue, the table) toward maxMemory, not the heap alone', () => {
    // 512 MiB held in an array buffer, and a bound 256 MiB above the heap in use: the heap
    // alone stays under it through this small search; heap and buffers together do not.
    const held = new Uint8Array(512 * 2 ** 20);
    const limit = Math.ceil(process.memoryUsage().heapUsed / 2 ** 20) + 256;
    const r = run({ maxMemory: limit, invariants: {}, terminalInvariants: {} });
    expect(held.length).toBe(512 * 2 ** 20);
    expect(r.bound).toEqual({ reason: 'maxMemory', limit });
    expect(r.stats.states).toBeLessThan(full.stats.states);
  });

  it('stops at the first violation with a shortest trace', () => {
    const r = run({ stopAtFirstViolation: true });
    expect(r.violations).toHaveLength(1);
    const [v] = r.violations;
    expect(v?.trace.length).toBe(lengths(full).get(v?.name ?? ''));
    expect(r.stats.states).toBeLessThan(full.stats.states);
  });

  it('finds the same states, transitions and shortest traces depth first', () => {
    const deep = run({ order: 'depth' });
    expect(deep.status).toBe('violation');
    expect(deep.stats).toMatchObject({ states: 2195, transitions: full.stats.transitions });
    expect(lengths(deep)).toEqual(lengths(full));
    expect(deep.violations.every((v) => v.shortest === undefined)).toBe(true);
    const exact = run({ order: 'depth', exact: true });
    expect(exact.stats.states).toBe(2195);
  });

  it('marks a depth-first trace that the bounded shortening pass did not reach', () => {
    // Depth first, 20 states reach a handoff of the rejected request; breadth first they do not.
    const handoff = { rejectedNeverHandedOff: invariants.rejectedNeverHandedOff as Check };
    const only = { invariants: handoff, terminalInvariants: {} };
    expect(run({ ...only, maxStates: 20 }).violations).toEqual([]);
    const r = run({ ...only, order: 'depth', maxStates: 20 });
    expect(r.status).toBe('violation');
    expect(r.bound).toEqual({ reason: 'maxStates', limit: 20 });
    const [v] = r.violations;
    expect(v?.name).toBe('rejectedNeverHandedOff');
    expect(v?.shortest).toBe(false);
    const last = v?.trace.at(-1)?.state;
    expect(last && invariants.rejectedNeverHandedOff?.(last)).toBe(false);
  });

  it('shortens a depth-first discovery path to a breadth-first one', () => {
    // SHORT twice reaches 200; depth first, LONG's chain 1..5 is followed first and reaches
    // 200 from 5, six steps deep.
    const chain = setup({ types: { context: {} as { n: number } } }).createMachine({
      id: 'chain',
      context: { n: 0 },
      on: {
        SHORT: {
          guard: ({ context }) => context.n === 0 || context.n === 100,
          actions: assign({ n: ({ context }) => context.n + 100 }),
        },
        LONG: {
          guard: ({ context }) => context.n < 6,
          actions: assign({ n: ({ context }) => (context.n === 5 ? 200 : context.n + 1) }),
        },
      },
    });
    const options = {
      events: [{ type: 'SHORT' }, { type: 'LONG' }],
      invariants: { notTwoHundred: (s: StateProjection<{ n: number }>) => s.context.n !== 200 },
    };
    const breadth = explore(chain, options);
    const depth = explore(chain, { ...options, order: 'depth' });
    expect(breadth.stats).toMatchObject({ states: 8, depth: 5 });
    expect(breadth.violations[0]?.trace).toHaveLength(2);
    expect(depth.stats).toMatchObject({ states: 8, depth: 6 });
    expect(depth.violations.map((v) => v.trace.map((s) => s.event.type))).toEqual([
      ['SHORT', 'SHORT'],
    ]);
  });

  it('calls back once per state and transition, and reports progress', () => {
    let states = 0;
    let maxDepth = 0;
    let transitions = 0;
    const progress: Progress[] = [];
    const r = run({
      onState: (_s, index, depth) => {
        expect(index).toBe(states++);
        maxDepth = Math.max(maxDepth, depth);
      },
      onTransition: () => {
        transitions++;
      },
      onProgress: (p) => progress.push(p),
      progressIntervalMs: 0,
    });
    expect(states).toBe(r.stats.states);
    expect(maxDepth).toBe(r.stats.depth);
    expect(transitions).toBe(r.stats.transitions);
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) {
      expect(p.states).toBeGreaterThan(0);
      expect(p.queue).toBeGreaterThanOrEqual(0);
      expect(p.statesPerSecond).toBeGreaterThanOrEqual(0);
      expect(p.heapBytes).toBeGreaterThan(0);
      // The fingerprint table at least is an array buffer.
      expect(p.bufferBytes).toBeGreaterThan(0);
    }
  });

  it('passes input to the context factory', () => {
    const counter = setup({
      types: { context: {} as { n: number }, input: {} as { start: number } },
    }).createMachine({
      id: 'counter',
      context: ({ input }) => ({ n: input.start }),
      on: {
        INC: {
          guard: ({ context }) => context.n < 5,
          actions: assign({ n: ({ context }) => context.n + 1 }),
        },
      },
    });
    expect(explore(counter, { input: { start: 2 }, events: [{ type: 'INC' }] }).stats.states).toBe(
      4,
    );
  });

  it('records each of more than 32 invariants under its own name, at its first violation', () => {
    // Verdicts go by words of 32 checks: `n` reaches k at depth k, so check k fails first
    // there, and a check past the first word must not be taken for one inside it.
    const counter = setup({ types: { context: {} as { n: number } } }).createMachine({
      id: 'counter',
      context: { n: 0 },
      on: {
        INC: {
          guard: ({ context }) => context.n < 40,
          actions: assign({ n: ({ context }) => context.n + 1 }),
        },
      },
    });
    const many: Record<string, (s: StateProjection<{ n: number }>) => boolean> = {};
    // The failing checks come last, in the second word.
    for (let k = 0; k < 36; k++) many[`never${k}`] = () => true;
    for (const k of [3, 33, 35, 70]) many[`below${k}`] = (s) => s.context.n < k;
    const r = explore(counter, { events: [{ type: 'INC' }], invariants: many });
    expect(Object.keys(many)).toHaveLength(40);
    expect(new Map(r.violations.map((v) => [v.name, v.trace.length]))).toEqual(
      new Map([
        ['below3', 3],
        ['below33', 33],
        ['below35', 35],
      ]),
    );
  });

  it('refuses an option it does not have, instead of running without it', () => {
    const events = servingEvents(['a1', 'b1']);
    expect(() => explore(machine, { events, search: 'depth' } as never)).toThrow(
      /^explore: unknown option search; accepted: events, invariants, .*, journal$/,
    );
    expect(() => exploreReference(machine, { events, maxState: 5 } as never)).toThrow(
      'explore: unknown option maxState; accepted: events,',
    );
    expect(explore(machine, { events, maxStates: 5, ...{ search: undefined } }).stats.states).toBe(
      5,
    );
  });

  it.each([-1, 1.5, Number.NaN, '10'])('refuses packFrom %j, which is no queue length', (v) => {
    const events = servingEvents(['a1', 'b1']);
    expect(() => explore(machine, { events, packFrom: v as number })).toThrow(
      `explore: packFrom must be a whole number of at least 0, not ${v}`,
    );
  });

  it.each([0, 'no', null])('refuses keepsStates %j, which is not true or false', (v) => {
    const events = servingEvents(['a1', 'b1']);
    expect(() => explore(machine, { events, keepsStates: v as unknown as boolean })).toThrow(
      `explore: keepsStates must be true or false, not ${String(v)}`,
    );
  });

  it('refuses more than 32 invariants on workers, which send verdicts as one word', async () => {
    const recipe = { module: 'unused', name: 'unused', arg: null };
    const many = Object.fromEntries(
      Array.from({ length: 33 }, (_, k) => [`p${k}`, () => true] as const),
    );
    await expect(
      exploreAsync(machine, {
        events: servingEvents(['a1', 'b1']),
        invariants: many,
        workers: { count: 2, recipe },
      }),
    ).rejects.toThrow(
      'explore: workers take at most 32 invariants and 32 terminal invariants, not 33',
    );
  });
});
