/**
 * Symmetry reduction for the serving machine: the group it uses, that a canonicaliser maps a
 * state and its images to one representative, and that every verdict (the set of violated
 * properties, and each shortest trace length) is the same with and without it, on every
 * built-in scenario × variant and on scenarios with symmetric requests (a 3-request incident,
 * two tenants with identical requests, and the catalogue's late-write, aux-slot and shared-prefix
 * scenarios with their two requests made alike). The group acts on the state vector as
 * `permuteState` does on the decoded context, and the canonicaliser and orbit sizes are checked
 * against every image of every state of those runs. Traces found under reduction are real runs: they
 * replay through XState's `transition()` to a violating state. The orbit sizes of the
 * representatives add up to the state count of the run without symmetry.
 */
import { initialTransition, transition } from 'xstate';
import { properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import { decodeContext, encodeContext } from '../../machines/contextCodec.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { band3, incident3, twins } from '../../scenarios/symmetric.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { servingAmple } from '../../src/checker/serving/servingPor.ts';
import {
  permuteState,
  servingOrbitSize,
  servingSymmetry,
  servingSymmetryGroup,
  VectorPermutation,
} from '../../src/checker/serving/servingSymmetry.ts';
import { explore } from '../../src/engine/index.ts';
import type { ExploreResult, StateProjection } from '../../src/engine/types.ts';

type Check = (s: StateProjection<ServingContext>) => boolean;
const stateChecks: Record<string, Check> = {};
const terminalChecks: Record<string, Check> = {};
for (const [name, p] of Object.entries(properties)) {
  (p.kind === 'terminal' ? terminalChecks : stateChecks)[name] = (s) => p(s as ServingState);
}

function run(
  scenario: Scenario,
  variant: Variant,
  symmetric: boolean,
  order: 'breadth' | 'depth' = 'breadth',
) {
  const machine = createServingMachine(scenario, variant);
  const result = explore<ServingContext, ExternalEvent>(machine, {
    events: servingEvents(scenario.requests.map((r) => r.id)),
    order,
    invariants: stateChecks,
    terminalInvariants: terminalChecks,
    ...(symmetric
      ? { symmetry: servingSymmetry(scenario), orbitSize: servingOrbitSize(scenario) }
      : {}),
  });
  return { machine, result };
}

/** `s` with its second request given the first's parameters, under its own tenant. */
function twinOf(s: Scenario): Scenario {
  const [a, b, ...rest] = s.requests;
  if (!a || !b) throw new Error(`${s.name} has fewer than two requests`);
  return {
    ...s,
    name: `${s.name}-twins`,
    requests: [a, { ...a, id: b.id, tenant: b.tenant }, ...rest],
  };
}

/** The catalogue's faults on their scenarios with optional mechanisms, the requests made alike. */
const mechanismTwins: [string, Scenario, Variant][] = catalogue
  .filter((e) => ['B4', 'B5', 'B8'].includes(e.id))
  .map((e): [string, Scenario, Variant] => {
    const s = twinOf(e.scenario);
    return [`${s.name} × ${e.variant.name}`, s, e.variant];
  });

type Vector = StateProjection<ServingContext>;

/** Every state of the unreduced run, as a vector state with its own words. */
function statesOf(scenario: Scenario, variant: Variant, maxStates: number): Vector[] {
  const out: Vector[] = [];
  explore(createServingMachine(scenario, variant), {
    events: servingEvents(scenario.requests.map((r) => r.id)),
    maxStates,
    onState: (s) => {
      const c = s.context as ServingContext;
      out.push({ value: s.value, context: { ...c, words: c.words.slice() } });
    },
  });
  return out;
}

const text = (s: Vector) => JSON.stringify([s.value, Array.from(s.context.words)]);

const verdict = (r: ExploreResult<ServingContext, ExternalEvent>) =>
  new Map(r.violations.map((v) => [v.name, v.trace.length]));

describe('the symmetry group', () => {
  it('is trivial for the built-in scenarios, whose requests all differ', () => {
    for (const s of scenarios) expect(servingSymmetryGroup(s)).toEqual([]);
  });

  it('swaps requests of one tenant with equal parameters, and tenants with equal requests', () => {
    expect(servingSymmetryGroup(incident3).map((p) => [...p])).toEqual([
      [
        ['a1', 'a2'],
        ['b1', 'b1'],
        ['a2', 'a1'],
      ],
    ]);
    expect(servingSymmetryGroup(twins).map((p) => [...p])).toEqual([
      [
        ['a1', 'b1'],
        ['b1', 'a1'],
      ],
    ]);
    const mixed: Scenario = {
      ...twins,
      requests: [...twins.requests, { id: 'a2', tenant: 'A', promptLen: 1, outputLen: 2 }],
    };
    expect(servingSymmetryGroup(mixed)).toEqual([]);
  });
});

describe('the canonicaliser', () => {
  it('maps every state of a run and its image to the same representative', () => {
    const canon = servingSymmetry(incident3);
    const [pi] = servingSymmetryGroup(incident3);
    if (!pi) throw new Error('no symmetry');
    let checked = 0;
    explore(createServingMachine(incident3, variants[1] as Variant), {
      events: servingEvents(['a1', 'b1', 'a2']),
      maxStates: 400,
      onState: (s) => {
        // The group acts on the decoded context; the canonicaliser takes and gives vectors.
        const vector = { value: s.value, context: s.context as ServingContext };
        const { layout } = vector.context;
        const state = { value: s.value, context: decodeContext(vector.context) };
        const image = permuteState(state, pi);
        expect(permuteState(image, pi)).toEqual(state);
        // A result is read before the next call, which may reuse its words.
        const a = canon(vector);
        const aText = JSON.stringify([a.value, decodeContext(a.context)]);
        const b = canon({ value: image.value, context: encodeContext(layout, image.context) });
        expect(JSON.stringify([b.value, decodeContext(b.context)])).toBe(aText);
        checked++;
      },
    });
    expect(checked).toBe(400);
  });

  it('gives its last result back unchanged when passed it, and never writes the words it is given', () => {
    for (const [scenario, variant] of [
      [incident3, variants[0] as Variant],
      [band3, variants[0] as Variant],
    ] as const) {
      const canon = servingSymmetry(scenario);
      let moved = 0;
      for (const s of statesOf(scenario, variant, 3000)) {
        const given = text(s);
        const rep = canon(s);
        expect(text(s)).toBe(given);
        if (rep === s) continue;
        moved++;
        const repText = text(rep);
        // The representative's words are the canonicaliser's own: passed back, they are read
        // while it makes its images, and not written.
        expect(text(canon(rep))).toBe(repText);
        expect(text(rep)).toBe(repText);
      }
      expect(moved).toBeGreaterThan(100);
    }
  });
});

describe('a canonicaliser that reuses its words', () => {
  /** `canon` with a copy of the words of every representative it makes. */
  const copying =
    (canon: (s: Vector) => Vector) =>
    (s: Vector): Vector => {
      const rep = canon(s);
      return rep === s
        ? rep
        : { ...rep, context: { ...rep.context, words: rep.context.words.slice() } };
    };

  /** The run's result, and every state `onState` was given, kept as it was given. */
  function kept(
    scenario: Scenario,
    variant: Variant,
    canon: (s: Vector) => Vector,
    order: 'breadth' | 'depth',
    por: boolean,
  ) {
    const states: Vector[] = [];
    const ample = por ? servingAmple(scenario) : undefined;
    const result = explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
      events: servingEvents(scenario.requests.map((r) => r.id)),
      order,
      invariants: stateChecks,
      symmetry: canon,
      orbitSize: servingOrbitSize(scenario),
      maxStates: 20_000,
      ...(ample ? { ample } : {}),
      onState: (s) => states.push(s as Vector),
    });
    return { result: { ...result, stats: { ...result.stats, ms: 0 } }, states: states.map(text) };
  }

  it.each([
    ['incident-3 × incident-2026', incident3, variants[0] as Variant],
    ['band-3 × incident-2026', band3, variants[0] as Variant],
  ])('gives the states, counts and traces of one that copies them, on %s', (_, s, v) => {
    for (const [order, por] of [
      ['breadth', false],
      ['depth', false],
      ['breadth', true],
    ] as const) {
      const reusing = kept(s, v, servingSymmetry(s), order, por);
      const fresh = kept(s, v, copying(servingSymmetry(s)), order, por);
      expect(reusing.result).toEqual(fresh.result);
      // The states `onState` kept are their own: none changed after the call.
      expect(reusing.states).toEqual(fresh.states);
      expect(new Set(reusing.states).size).toBe(reusing.states.length);
    }
  });
});

const vectorCases: [string, Scenario, Variant][] = [
  ['incident-3 × incident-2026', incident3, variants[0] as Variant],
  ['twins × retire-only', twins, variants.find((v) => v.name === 'retire-only') as Variant],
  ...mechanismTwins,
];

describe('the group on the state vector', () => {
  it('has the mechanism scenarios’ twins swap their two requests', () => {
    expect(mechanismTwins.map(([name]) => name)).toHaveLength(3);
    for (const [, s] of mechanismTwins) expect(servingSymmetryGroup(s)).toHaveLength(1);
  });

  it.each(vectorCases)('%s: moves blocks and renames codes as permuteState does', (_n, s, v) => {
    const group = servingSymmetryGroup(s);
    let strays = 0;
    let foreignReads = 0;
    for (const state of statesOf(s, v, 3000)) {
      const { layout, words } = state.context;
      const before = words.slice();
      const decoded = { value: state.value, context: decodeContext(state.context) };
      for (const pi of group) {
        const image = new VectorPermutation(layout, pi).apply(state);
        const expected = permuteState(decoded, pi);
        expect(image.value).toEqual(expected.value);
        expect(decodeContext(image.context)).toEqual(expected.context);
        expect(image.context.words).toEqual(encodeContext(layout, expected.context).words);
      }
      expect(words).toEqual(before);
      const d = decoded.context;
      strays += d.prefillPool.strayWrites.length + d.decodePool.strayWrites.length;
      for (const [rid, r] of Object.entries(d.requests)) {
        foreignReads += r.reads.filter((x) => x.writer !== null && x.writer !== rid).length;
      }
    }
    // Between them, the runs write request codes in every place one can be written.
    if (s.name === 'late-write-twins') expect(strays).toBeGreaterThan(0);
    if (s.name === 'shared-prefix-twins') expect(foreignReads).toBeGreaterThan(0);
  });

  it.each(vectorCases)('%s: one representative per orbit, and exact orbit sizes', (_n, s, v) => {
    const group = servingSymmetryGroup(s);
    const canon = servingSymmetry(s);
    const orbit = servingOrbitSize(s);
    for (const state of statesOf(s, v, 3000)) {
      const layout = state.context.layout;
      const images = [state, ...group.map((pi) => new VectorPermutation(layout, pi).apply(state))];
      const before = state.context.words.slice();
      const rep = canon(state);
      expect(state.context.words).toEqual(before);
      // The representative is its own; its words are valid until the next call, so it is read
      // (and copied) first.
      const repText = text(rep);
      expect(canon(rep)).toBe(rep);
      if (repText === text(state)) expect(rep).toBe(state);
      else expect(rep.context.words).not.toBe(state.context.words);
      const own = { ...rep, context: { ...rep.context, words: rep.context.words.slice() } };
      // The representative is an image, and the same for every image.
      const texts = new Set(images.map(text));
      expect(texts.has(repText)).toBe(true);
      for (const image of images) expect(text(canon(image))).toBe(repText);
      expect(orbit(state)).toBe(texts.size);
      expect(orbit(own)).toBe(texts.size);
    }
  });
});

const builtIn: [string, Scenario, Variant][] = scenarios.flatMap((s) =>
  variants.map((v): [string, Scenario, Variant] => [`${s.name} × ${v.name}`, s, v]),
);
const symmetric: [string, Scenario, Variant][] = [
  ...variants.map((v): [string, Scenario, Variant] => [`twins × ${v.name}`, twins, v]),
  ...variants.map((v): [string, Scenario, Variant] => [`band-3 × ${v.name}`, band3, v]),
  ['incident-3 × fixed', incident3, variants.find((v) => v.name === 'fixed') as Variant],
  ...mechanismTwins,
];

describe('verdicts with and without symmetry', () => {
  it.each(builtIn)('%s: identical, with the same state count', (_name, scenario, variant) => {
    const off = run(scenario, variant, false).result;
    const on = run(scenario, variant, true).result;
    expect(verdict(on)).toEqual(verdict(off));
    expect(on.stats.states).toBe(off.stats.states);
    expect(on.stats.unreducedStates).toBe(off.stats.states);
  });

  it.each(symmetric)('%s: identical, with fewer states', (_name, scenario, variant) => {
    const off = run(scenario, variant, false).result;
    const { machine, result: on } = run(scenario, variant, true);
    expect(verdict(on)).toEqual(verdict(off));
    expect(on.status).toBe(off.status);
    expect(on.stats.states).toBeLessThan(off.stats.states);
    // The orbits of the representatives add up to the unreduced space, exactly.
    expect(on.stats.unreducedStates).toBe(off.stats.states);
    expect(off.stats.unreducedStates).toBeUndefined();
    for (const v of on.violations) {
      let [snap] = initialTransition(machine);
      for (const step of v.trace) [snap] = transition(machine, snap, step.event);
      expect(properties[v.name]?.(snap as unknown as ServingState)).toBe(false);
    }
  });

  it.each(symmetric)('%s: the same representatives depth first', (_name, scenario, variant) => {
    const breadth = run(scenario, variant, true).result;
    const depth = run(scenario, variant, true, 'depth').result;
    expect(verdict(depth)).toEqual(verdict(breadth));
    expect(depth.status).toBe(breadth.status);
    expect(depth.stats.states).toBe(breadth.stats.states);
    expect(depth.stats.unreducedStates).toBe(breadth.stats.unreducedStates);
  });
});
