/**
 * B2: a pending abort is overwritten on Success. An error found after the last chunk was
 * enqueued stays in `to_finish`; nothing on the inflight path reads it, the transfer completes
 * and FINISH_LENGTH(0) replaces it, so the client gets 200 with tokens.
 */
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';
import { prefillError } from '../scenarios.ts';

/** Catalogue entry B2. */
export const entry: CatalogueEntry = {
  id: 'B2',
  description:
    'The Success branch overwrites a pending abort with FINISH_LENGTH(0): the error is lost and the client gets 200.',
  upstream: ['#33507', '#33508', '#30937'],
  variant: faultVariant(
    'b2-success-overwrites-abort',
    '`fixed` whose inflight path never reads a pending abort (B2): the transfer completes and Success overwrites it.',
    'successOverwritesPendingAbort',
  ),
  scenario: prefillError,
};
