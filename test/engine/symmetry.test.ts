/**
 * Symmetry reduction for the serving machine: the group it uses, that a canonicaliser maps a
 * state and its images to one representative, and that every verdict (the set of violated
 * properties, and each shortest trace length) is the same with and without it, on every
 * built-in scenario × variant and on scenarios with symmetric requests (a 3-request incident,
 * and two tenants with identical requests). Traces found under reduction are real runs: they
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
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import {
  permuteState,
  servingOrbitSize,
  servingSymmetry,
  servingSymmetryGroup,
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
        const a = canon(vector);
        const b = canon({ value: image.value, context: encodeContext(layout, image.context) });
        expect(JSON.stringify([a.value, decodeContext(a.context)])).toBe(
          JSON.stringify([b.value, decodeContext(b.context)]),
        );
        checked++;
      },
    });
    expect(checked).toBe(400);
  });
});

const builtIn: [string, Scenario, Variant][] = scenarios.flatMap((s) =>
  variants.map((v): [string, Scenario, Variant] => [`${s.name} × ${v.name}`, s, v]),
);
const symmetric: [string, Scenario, Variant][] = [
  ...variants.map((v): [string, Scenario, Variant] => [`twins × ${v.name}`, twins, v]),
  ...variants.map((v): [string, Scenario, Variant] => [`band-3 × ${v.name}`, band3, v]),
  ['incident-3 × fixed', incident3, variants.find((v) => v.name === 'fixed') as Variant],
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
