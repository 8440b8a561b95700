/**
 * The serving machine's partial-order reduction (`servingPor.ts`): its footprint declarations
 * hold on every built-in and catalogue scenario (the self-check finds nothing), the self-check
 * catches seeded wrong declarations by name, and the reduced search keeps every verdict,
 * witness and shortest trace, with and without symmetry, while storing fewer states.
 */
import { describe, expect, it } from 'vitest';
import { properties, witnesses } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import { type Variant, variantNamed, variants } from '../../machines/variants.ts';
import { incident, scenarios } from '../../scenarios/index.ts';
import { band3 } from '../../scenarios/symmetric.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import { servingEvents } from '../../src/checker/serving/servingEvents.ts';
import {
  checkServingPor,
  servingAmple,
  servingLocalEvents,
} from '../../src/checker/serving/servingPor.ts';
import { servingOrbitSize, servingSymmetry } from '../../src/checker/serving/servingSymmetry.ts';
import { type ExploreOptions, explore, type Invariant } from '../../src/engine/index.ts';
import { conclusions } from './conclusions.ts';

type Options = ExploreOptions<ServingContext, ExternalEvent>;
const holds =
  (f: (s: ServingState) => boolean): Invariant<ServingContext> =>
  (s) =>
    f(s as unknown as ServingState);

/** Every property, and every witness as an invariant that fails where the witness is reached. */
const checks: Options = {
  invariants: {
    ...Object.fromEntries(
      Object.entries(properties)
        .filter(([, p]) => p.kind === 'state')
        .map(([n, p]) => [n, holds(p)]),
    ),
    ...Object.fromEntries(
      Object.entries(witnesses).map(([n, w]) => [`reached ${n}`, holds((s) => !w(s))]),
    ),
  },
  terminalInvariants: Object.fromEntries(
    Object.entries(properties)
      .filter(([, p]) => p.kind === 'terminal')
      .map(([n, p]) => [n, holds(p)]),
  ),
};

function run(scenario: Scenario, variant: Variant, extra: Options) {
  const machine = createServingMachine(scenario, variant);
  const events = servingEvents(scenario.requests.map((r) => r.id));
  return explore<ServingContext, ExternalEvent>(machine, { events, ...checks, ...extra });
}

/** Violations (witnesses reached included) as `name:steps`, sorted. */
const verdicts = (r: ReturnType<typeof run>) =>
  r.violations.map((v) => `${v.name}:${v.trace.length}${v.shortest === false ? '?' : ''}`).sort();

describe('the footprints the reduction rests on', () => {
  const builtIn = scenarios.flatMap((s) =>
    ['incident-2026', 'fixed'].map((v): [string, Scenario, Variant] => [
      `${s.name} × ${v}`,
      s,
      variantNamed(v),
    ]),
  );
  const entries = catalogue.map((e): [string, Scenario, Variant] => [e.id, e.scenario, e.variant]);

  it.each([...builtIn, ...entries])('hold on %s', (_, scenario, variant) => {
    const found = checkServingPor(scenario, variant);
    expect(found.problems).toEqual([]);
    expect(found.complete).toBe(true);
    // Shared bootstrap rooms offer no reduction, so nothing is visited there.
    expect(found.steps > 0).toBe(servingAmple(scenario) !== undefined);
  });

  it('are checked: declaring a step local that is not fails with its words and properties', () => {
    const seeded = new Set([...servingLocalEvents, 'PREFILL_INTAKE', 'DECODE_INTAKE']);
    const { problems } = checkServingPor(incident, variantNamed('incident-2026'), seeded);
    expect(problems).toContain('PREFILL_INTAKE (local) writes rejectedOnPrefill, not private');
    expect(problems).toContain('DECODE_INTAKE (local) writes decodeLen, not private');
    const visible =
      /^PREFILL_INTAKE \(local\) is visible:.*rejectedNeverHandedOff \(trigger\).*someRequestRejected/;
    expect(problems.some((p) => visible.test(p))).toBe(true);
    expect(problems.every((p) => !p.startsWith('DISPATCH'))).toBe(true);
  });

  it('offer nothing with shared bootstrap rooms', () => {
    const b9 = catalogue.find((e) => e.id === 'B9');
    expect(b9 && servingAmple(b9.scenario)).toBeUndefined();
    expect(b9 && checkServingPor(b9.scenario, b9.variant)).toEqual({
      problems: [],
      steps: 0,
      complete: true,
    });
  });

  it('say when a bound stopped the visit', () => {
    const found = checkServingPor(incident, variantNamed('fixed'), servingLocalEvents, 10);
    expect(found.complete).toBe(false);
    expect(found.problems).toEqual([]);
  });
});

describe('the reduced search', () => {
  const pairs = variants.map((v): [string, Variant] => [v.name, v]);

  it.each(pairs)('keeps every verdict and shortest trace on incident under %s', (_, variant) => {
    const full = run(incident, variant, {});
    const reduced = run(incident, variant, { ample: servingAmple(incident) });
    expect(verdicts(reduced)).toEqual(verdicts(full));
    expect(reduced.stats.states).toBeLessThan(full.stats.states);
  });

  it('keeps them with symmetry, on a space the reduction cuts by a fifth', () => {
    const v = variantNamed('incident-2026');
    const sym = { symmetry: servingSymmetry(band3), orbitSize: servingOrbitSize(band3) };
    const full = run(band3, v, {});
    const reduced = run(band3, v, { ample: servingAmple(band3) });
    const both = run(band3, v, { ...sym, ample: servingAmple(band3) });
    expect([full.stats.states, reduced.stats.states]).toEqual([4314, 3453]);
    expect(reduced.stats.ampleStates).toBe(3);
    expect(verdicts(reduced)).toEqual(verdicts(full));
    expect(verdicts(both)).toEqual(verdicts(full));
    expect(both.stats.states).toBeLessThan(reduced.stats.states);
  });
});

describe('check with por', () => {
  const builtIn = scenarios.flatMap((s) =>
    variants.map((v): [string, Scenario, Variant] => [`${s.name} × ${v.name}`, s, v]),
  );
  const entries = catalogue.flatMap((e): [string, Scenario, Variant][] => [
    [`${e.id} × ${e.variant.name}`, e.scenario, e.variant],
    [`${e.id} × fixed`, e.scenario, variantNamed('fixed')],
  ]);

  it.each([...builtIn, ...entries])('concludes as without on %s', (_, scenario, variant) => {
    const requiredWitnesses = scenario.witnesses;
    const full = check(scenario, variant, { requiredWitnesses });
    const reduced = check(scenario, variant, { requiredWitnesses, por: true });
    expect(conclusions(reduced)).toEqual(conclusions(full));
    expect(reduced.stats.states).toBeLessThanOrEqual(full.stats.states);
    expect(reduced.engine?.por).toBe(true);
    expect(full.stats.ampleStates).toBeUndefined();
    // Shared bootstrap rooms offer no reduction; elsewhere the dispatches are expanded alone,
    // which stores fewer states where there is another request to interleave them with.
    const offered = servingAmple(scenario) !== undefined;
    expect((reduced.stats.ampleStates ?? 0) > 0).toBe(offered);
    const fewer = offered && scenario.requests.length > 1;
    expect(reduced.stats.states < full.stats.states).toBe(fewer);
  });

  it('is refused with a machine of its own, the reference engine and worker threads', () => {
    const machine = createServingMachine(incident, variantNamed('fixed'));
    const fixed = variantNamed('fixed');
    expect(() => check(incident, fixed, { por: true, machine })).toThrow(
      "por rests on the built-in machine's measured footprints; not with a machine of your own",
    );
    expect(() => check(incident, fixed, { por: true, engine: 'graph' })).toThrow(
      'por need the fast engine',
    );
    expect(() => check(incident, fixed, { por: true, workers: 2 })).toThrow('not with por');
  });
});
