/**
 * The properties' declared reads (`Property.reads`) over generated scenarios: two or three
 * requests with up to two mechanisms at once (`mechanismsScenarioArb`), under every built-in
 * and catalogue variant. On the first states of each (breadth first), every property and
 * trigger reads only what it declares (`checkServingReads`, the self-check behind
 * `check --reads-check`), so the search's skipping of properties a step cannot change hides
 * nothing. `test/invariants/reads.test.ts` does the same on the built-in and catalogue
 * scenarios, and shows that the self-check catches a read left out.
 *
 * The seed is pinned (KVCHECK_SEED, else 20261026) and printed in the titles; fast-check prints
 * the seed and path of a failure.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { type Variant, variants } from '../../machines/variants.ts';
import { catalogueVariants } from '../../src/catalogue/index.ts';
import { checkServingReads } from '../../src/checker/serving/servingReads.ts';
import { mechanismsScenarioArb, pinnedSeed } from './scenarioArbitraries.ts';

const seed = pinnedSeed();

/** States recorded per generated scenario: the first ones, breadth first. */
const statesPerCase = 500;

const variantArb: fc.Arbitrary<Variant> = fc.constantFrom(...variants, ...catalogueVariants);

describe(`declared reads over generated scenarios (seed: ${seed})`, () => {
  test.prop([mechanismsScenarioArb(), variantArb], { seed, numRuns: 40 })(
    'every property and trigger reads only what it declares',
    (scenario, variant) => {
      const found = checkServingReads(scenario, variant, statesPerCase);
      expect(found.problems).toEqual([]);
      expect(found.states).toBeGreaterThan(1);
    },
  );
});
