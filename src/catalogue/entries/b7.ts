/**
 * B7: a late chunk result after an abort. With overlap scheduling the abort finishes the request
 * while its chunk result is still in flight; the late result is dropped without being retired,
 * and its prefill KV is never released.
 */
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';
import { lateAbort } from '../scenarios.ts';

/** Catalogue entry B7. */
export const entry: CatalogueEntry = {
  id: 'B7',
  description:
    'An overlapped final or middle chunk result arrives after an abort and is not retired: its KV leaks.',
  upstream: ['#36926', '#36988'],
  variant: faultVariant(
    'b7-late-result-leak',
    '`fixed` whose abort finishes a request with a chunk result in flight and drops the late result unretired (B7).',
    'lateResultNotRetired',
  ),
  scenario: lateAbort,
};
