/**
 * The two engines behind `check` agree on the incident with transfer faults and client aborts,
 * and on the happy scenario with chunked prefill (see `agreement.ts`). These spaces cost the
 * reference engine seconds each, so two variants suffice: the faulty one and `fixed`.
 */
import type { Scenario } from '../../machines/scenario.ts';
import { variantNamed } from '../../machines/variants.ts';
import { happy, incident } from '../../scenarios/index.ts';
import { expectAgreement } from './agreement.ts';

const extra: Scenario[] = [
  { ...incident, name: 'incident-faults-aborts', transferFaults: true, clientAborts: true },
  { ...happy, name: 'happy-chunked', prefillChunks: 2 },
];

describe.each(extra.map((s) => [s.name, s] as const))('%s', (_, scenario) => {
  it.each(['incident-2026', 'fixed'])(
    'under %s: both engines give the same result, and its traces replay',
    (variant) => {
      expectAgreement(scenario, variantNamed(variant));
    },
  );
});
