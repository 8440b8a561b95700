/**
 * B6: a double release. An error found while the last chunk is in flight releases the prefill
 * KV at once, while the row and the transfer still refer to it; the terminal cleanup releases it
 * again.
 */
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';
import { prefillError } from '../scenarios.ts';

/** Catalogue entry B6. */
export const entry: CatalogueEntry = {
  id: 'B6',
  description:
    'An error during the transfer (a grammar error) releases the KV at once, and the terminal cleanup releases it again.',
  upstream: ['#30937'],
  variant: faultVariant(
    'b6-double-release',
    '`fixed` whose prefill error path releases the KV at once, before the terminal cleanup releases it again (B6).',
    'errorReleasesKvImmediately',
  ),
  scenario: prefillError,
};
