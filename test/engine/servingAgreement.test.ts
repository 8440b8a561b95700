/**
 * Agreement first: on every built-in scenario under every variant, and on the incident with
 * transfer faults, `explore` (symmetry off, with `servingEvents`) stores exactly the states
 * `getAdjacencyMap` reaches (with an independent candidate-event function), violates the same
 * properties with the same shortest trace lengths, and every trace replays through XState's
 * own `transition()` to a violating state.
 */
import { type AnyMachineSnapshot, initialTransition, transition } from 'xstate';
import { properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import { incident, scenarios } from '../../scenarios/index.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { explore } from '../../src/engine/index.ts';
import type { StateProjection } from '../../src/engine/types.ts';
import {
  type KeyOf,
  missing,
  oracle,
  referenceCandidateEvents,
  shortestViolation,
} from './graphOracle.ts';

/** `[value, context without the static tenant table]`, as the brief's agreement key. */
const keyOf: KeyOf = (s) => {
  const { tenants: _static, ...dynamic } = s.context as Record<string, unknown>;
  return JSON.stringify([s.value, dynamic]);
};

type Check = (s: StateProjection<ServingState['context']>) => boolean;
const stateChecks: Record<string, Check> = {};
const terminalChecks: Record<string, Check> = {};
for (const [name, p] of Object.entries(properties)) {
  (p.kind === 'terminal' ? terminalChecks : stateChecks)[name] = (s) => p(s as ServingState);
}

const faults: Scenario = { ...incident, name: 'incident-faults', transferFaults: true };
const cases: [Scenario, Variant][] = [
  ...scenarios.flatMap((s) => variants.map((v): [Scenario, Variant] => [s, v])),
  ...variants
    .filter((v) => v.name === 'incident-2026')
    .map((v): [Scenario, Variant] => [faults, v]),
];

describe.each(cases)('%s × %s', (scenario, variant) => {
  const name = `${(scenario as Scenario).name} × ${(variant as Variant).name}`;
  it(`${name}: same states, same verdicts, replayable traces`, () => {
    const machine = createServingMachine(scenario, variant);
    const rids = scenario.requests.map((r) => r.id);
    const graph = oracle(machine, (s) => referenceCandidateEvents(s, rids), keyOf);
    const keys = new Set<string>();
    const r = explore(machine, {
      events: servingEvents(rids),
      invariants: stateChecks,
      terminalInvariants: terminalChecks,
      onState: (s) => keys.add(keyOf(s)),
    });
    expect(r.stats.states).toBe(graph.keys.size);
    expect(keys.size).toBe(graph.keys.size);
    expect(missing(graph.keys, keys)).toEqual([]);
    expect(r.stats.transitions).toBe(graph.transitions);
    expect(r.stats.depth).toBe(Math.max(...graph.depth.values()));

    const expected = Object.entries(properties).flatMap(([prop, p]) => {
      const d = shortestViolation(graph, (s) => p(s as ServingState), p.kind === 'terminal');
      return d === null ? [] : [[prop, d] as const];
    });
    const found = r.violations.map((v) => [v.name, v.trace.length] as const);
    expect(new Map(found)).toEqual(new Map(expected));
    expect(r.status).toBe(expected.length > 0 ? 'violation' : 'ok');

    for (const v of r.violations) {
      let [snap] = initialTransition(machine);
      for (const step of v.trace) {
        [snap] = transition(machine, snap, step.event);
        expect(keyOf(snap as AnyMachineSnapshot)).toBe(keyOf(step.state));
      }
      const p = properties[v.name];
      expect(p?.(snap as unknown as ServingState)).toBe(false);
    }
  });
});
