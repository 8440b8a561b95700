/**
 * The two engines behind `check` agree on every catalogue scenario, under the entry's faulty
 * variant and under `fixed` (see `agreement.ts` for what agreement means).
 */
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { fixedVariant } from '../../src/catalogue/faultVariant.ts';
import { catalogue } from '../../src/catalogue/index.ts';
import { expectAgreement } from './agreement.ts';

const pairs: [string, Scenario, Variant][] = catalogue.flatMap((e) =>
  [e.variant, fixedVariant()].map((v): [string, Scenario, Variant] => [
    `${e.id} ${e.scenario.name}`,
    e.scenario,
    v,
  ]),
);

// B9's faulty variant has 71,877 states, which the reference engine (`getAdjacencyMap`) takes
// about a minute to explore alone; on a loaded 2-core machine more than the suite's 120 s.
const referenceTimeout = 360_000;

describe.each(pairs)('%s', (_, scenario, variant) => {
  it(
    `under ${variant.name}: both engines give the same result, and its traces replay`,
    () => {
      expectAgreement(scenario, variant);
    },
    referenceTimeout,
  );
});
