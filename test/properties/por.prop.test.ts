/**
 * Differential test of partial-order reduction (`check` with `por`) over generated scenarios:
 * two or three requests of one to three tenants, with up to two mechanisms at once (transfer
 * faults and client aborts with budgets of one, chunked prefill, late writes, aux slots,
 * prefill errors, retraction, pull transfer, a shared prefix), under every built-in variant
 * and every catalogue variant. For each, the footprints the reduction rests on hold
 * (`checkServingPor`), and the reduced check concludes as the unreduced one: the verdict, each
 * property's status and shortest trace length, the witnesses reached, the coverage; and so
 * does the reduced check with symmetry reduction on as well (coverage aside).
 *
 * The seed is pinned (KVCHECK_SEED, else 20261026) and printed in the titles; fast-check prints
 * the seed and path of a failure.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type Variant, variants } from '../../machines/variants.ts';
import { catalogueVariants } from '../../src/catalogue/index.ts';
import { check } from '../../src/checker/check.ts';
import { checkServingPor } from '../../src/checker/serving/servingPor.ts';
import { conclusions } from '../checker/conclusions.ts';
import { mechanismsScenarioArb, pinnedSeed } from './scenarioArbitraries.ts';

const seed = pinnedSeed();

/** Far above what the scenarios below reach; a run that hits it is discarded (`fc.pre`). */
const maxStates = 40_000;

const variantArb: fc.Arbitrary<Variant> = fc.constantFrom(...variants, ...catalogueVariants);

describe(`partial-order reduction over generated scenarios (seed: ${seed})`, () => {
  test.prop([mechanismsScenarioArb(), variantArb], { seed, numRuns: 60 })(
    'rests on footprints that hold, and concludes as the unreduced check',
    (scenario, variant) => {
      const full = check(scenario, variant, { maxStates });
      fc.pre(full.bound === undefined);
      expect(checkServingPor(scenario, variant).problems).toEqual([]);
      const reduced = check(scenario, variant, { maxStates, por: true });
      expect(conclusions(reduced)).toEqual(conclusions(full));
      expect(reduced.stats.states).toBeLessThanOrEqual(full.stats.states);
      // With symmetry too (which records no coverage: a representative renames requests).
      const both = check(scenario, variant, { maxStates, por: true, symmetry: true });
      expect({ ...conclusions(both), coverage: [] }).toEqual({
        ...conclusions(full),
        coverage: [],
      });
    },
  );
});
