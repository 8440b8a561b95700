/**
 * B3: the router's join hangs. mini_lb and the PD router wait for both legs and return decode's
 * reply; `fixed` does the same and is clean because decode mirrors every prefill error (retire on
 * both sides, a failed room, the waiting timeout). Without the waiting timeout, a request prefill
 * rejected leaves decode waiting for KV that never comes, and the join never returns.
 */
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';
import { prefillReject } from '../scenarios.ts';

/** Catalogue entry B3. */
export const entry: CatalogueEntry = {
  id: 'B3',
  description:
    'The router joins on decode after prefill failed, and decode, with no waiting timeout, waits for KV that never comes: the client is never answered.',
  upstream: ['#24159', '#29017', '#9726'],
  variant: faultVariant(
    'b3-router-join-hang',
    '`fixed` whose decode waits for KV with no timeout (B3): the router’s join on decode never returns once prefill has failed.',
    'decodeWaitsForeverForKv',
  ),
  scenario: prefillReject,
};
