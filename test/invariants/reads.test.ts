/**
 * Every property declares what it and its trigger read (`Property.reads`), and the search skips
 * a property on a successor that changed none of it. A read left out would hide violations, so
 * this test records every word and region each property and trigger reads on the reachable
 * states of every built-in scenario under every variant and of every catalogue entry (the
 * first states of each, breadth first) with `checkServingReads`, the self-check behind
 * `check --reads-check`, and fails on any read that is not declared. The last tests show that
 * it can fail (a declaration with a variable or a region left out is caught) and that it tells
 * a whole space from a bounded visit.
 */
import { describe, expect, test } from 'vitest';
import { type Property, properties } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { type Variant, variants } from '../../machines/variants.ts';
import { scenarios } from '../../scenarios/index.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { checkServingReads } from '../../src/checker/serving/servingReads.ts';

/** States recorded per scenario × variant: the first ones, breadth first. */
const statesPerCase = 1000;

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
    const found = checkServingReads(scenario, variant, statesPerCase);
    expect(found.problems).toEqual([]);
    expect(found.states).toBeGreaterThan(1);
    // The whole space, or exactly the first `statesPerCase` states of it.
    expect(found.complete || found.states === statesPerCase).toBe(true);
  });

  test('a declaration that leaves a read out is caught, naming the property and the read', () => {
    const p = properties.rejectedHoldsNothing as Property;
    const withoutReads = Object.assign((s: ServingState) => p(s), {
      ...p,
      reads: {
        ...p.reads,
        request: (p.reads.request ?? []).filter((x) => x !== 'rejectedOnPrefill'),
      },
    }) as Property;
    const [, scenario, variant] = cases[0] as [string, Scenario, Variant];
    const broken = checkServingReads(scenario, variant, statesPerCase, [
      ['rejectedHoldsNothing', withoutReads],
    ]);
    expect(broken.problems).toEqual([
      'rejectedHoldsNothing reads request.rejectedOnPrefill, not declared',
    ]);
    const whole = checkServingReads(scenario, variant, statesPerCase, [
      ['rejectedHoldsNothing', p],
    ]);
    expect(whole.problems).toEqual([]);
  });

  test('a region left out is caught too', () => {
    const p = properties.coverageBeforeCommit as Property;
    const withoutRegion = Object.assign((s: ServingState) => p(s), {
      ...p,
      reads: { ...p.reads, regions: [] },
    }) as Property;
    const [, scenario, variant] = cases[0] as [string, Scenario, Variant];
    const broken = checkServingReads(scenario, variant, statesPerCase, [
      ['coverageBeforeCommit', withoutRegion],
    ]);
    expect(broken.problems).toEqual(['coverageBeforeCommit reads region.decode, not declared']);
  });

  test('is complete on a whole space and says incomplete under a bound', () => {
    const incident = scenarios.find((s) => s.name === 'incident') as Scenario;
    const fixed = variants.find((v) => v.name === 'fixed') as Variant;
    expect(checkServingReads(incident, fixed)).toEqual({
      problems: [],
      states: 319,
      complete: true,
    });
    expect(checkServingReads(incident, fixed, 10)).toMatchObject({ states: 10, complete: false });
  });
});
