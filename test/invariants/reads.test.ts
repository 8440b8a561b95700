/**
 * Every property declares what it and its trigger read (`Property.reads`), and the search skips
 * a property on a successor that changed none of it. A read left out would hide violations, so
 * this test records every word and region each property and trigger reads on the reachable
 * states of every built-in scenario under every variant and of every catalogue entry (the
 * first states of each, breadth first), and fails on any read that is not declared. The last
 * test shows that it can fail: a declaration with one variable left out is caught.
 */
import { describe, expect, test } from 'vitest';
import { type Property, properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { plainState } from '../../src/checker/scenarioResult.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import { explore } from '../../src/engine/index.ts';
import { recordReads } from './recordReads.ts';

/** States recorded per scenario × variant: the first ones, breadth first. */
const statesPerCase = 1000;

/** The names `recordReads` gives the variables and regions `reads` declares. */
function declared(p: Pick<Property, 'reads'>): Set<string> {
  const r = p.reads;
  return new Set([
    ...(r.request ?? []).map((x) => `request.${x}`),
    ...(r.pool ?? []).map((x) => `pool.${x}`),
    ...(r.global ?? []).map((x) => `global.${x}`),
    ...(r.regions ?? []).map((x) => `region.${x}`),
  ]);
}

/** What `p` or its trigger read in `s` that `p` does not declare. */
function undeclared(p: Property, s: ServingState): string[] {
  const known = declared(p);
  const out: string[] = [];
  for (const read of [(x: ServingState) => p(x), (x: ServingState) => p.trigger.fires(x)]) {
    const { variables, regions } = recordReads(read, s);
    for (const v of variables) if (!known.has(v)) out.push(v);
    for (const r of regions) if (!known.has(`region.${r}`)) out.push(`region.${r}`);
  }
  return out;
}

/** The first `statesPerCase` reachable states of `scenario` under `variant`. */
function statesOf(scenario: Scenario, variant: Variant): ServingState[] {
  const states: ServingState[] = [];
  explore<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
    events: servingEvents(scenario.requests.map((r) => r.id)),
    maxStates: statesPerCase,
    onState: (s) => {
      states.push(plainState(s));
    },
  });
  return states;
}

const cases: [string, Scenario, Variant][] = [
  ...scenarios.flatMap((s) =>
    variants.map((v): [string, Scenario, Variant] => [`${s.name} × ${v.name}`, s, v]),
  ),
  ...catalogue.map((e): [string, Scenario, Variant] => [
    `${e.scenario.name} × ${e.variant.name}`,
    e.scenario,
    e.variant,
  ]),
];

describe('every property declares what it reads', () => {
  test.each(cases)('%s', (_name, scenario, variant) => {
    const found = new Map<string, Set<string>>();
    for (const s of statesOf(scenario, variant)) {
      for (const [name, p] of Object.entries(properties)) {
        for (const read of undeclared(p, s)) {
          const set = found.get(name) ?? new Set<string>();
          set.add(read);
          found.set(name, set);
        }
      }
    }
    const lines = [...found].map(([name, reads]) => `${name} reads ${[...reads].join(', ')}`);
    expect(lines).toEqual([]);
  });

  test('a declaration that leaves a read out is caught', () => {
    const p = properties.rejectedHoldsNothing as Property;
    const withoutReads = Object.assign((s: ServingState) => p(s), {
      ...p,
      reads: {
        ...p.reads,
        request: (p.reads.request ?? []).filter((x) => x !== 'rejectedOnPrefill'),
      },
    }) as Property;
    const [, scenario, variant] = cases[0] as [string, Scenario, Variant];
    const states = statesOf(scenario, variant);
    expect(states.length).toBeGreaterThan(10);
    expect(
      states.some((s) => undeclared(withoutReads, s).includes('request.rejectedOnPrefill')),
    ).toBe(true);
    expect(states.every((s) => undeclared(p, s).length === 0)).toBe(true);
  });
});
