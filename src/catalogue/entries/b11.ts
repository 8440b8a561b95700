/**
 * B11: pull mode (vLLM's NIXL connector), a client abort while decode's READ is in flight.
 * Before #32255 decode's `finish_requests` freed the aborted request's blocks at once; the READ,
 * which cannot be cancelled, then landed in blocks another request had been given. #32255 keeps
 * them until the READ has finished (`delay_free_blocks` for `WAITING_FOR_REMOTE_KVS`). This is
 * B4's fault in the other protocol: the same switch, `releaseBeforeDrain`.
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/** Two one-token prompts of different tenants in pull mode; one client may abort. */
export const pullAbort: Scenario = {
  name: 'pull-abort',
  description:
    'Pull-mode transfer: a client aborts while decode’s READ of prefill’s pages is in flight; the READ still lands.',
  requests: [
    { id: 'a1', tenant: 'A', promptLen: 1, outputLen: 1 },
    { id: 'b1', tenant: 'B', promptLen: 1, outputLen: 2 },
  ],
  pageSize: 1,
  prefillPoolTokens: 10,
  decodePoolTokens: 10,
  contextLen: 10,
  reserve: 5,
  transferFaults: false,
  prefillChunks: 1,
  clientAborts: true,
  maxClientAborts: 1,
  transfer: 'pull',
  witnesses: ['someRequestDecoded', 'clientAborted', 'lateWriteLanded'],
};

/** Catalogue entry B11. */
export const entry: CatalogueEntry = {
  id: 'B11',
  description:
    'Pull mode: decode frees an aborted request’s blocks while its READ is still in flight; the READ lands in blocks another tenant was given.',
  upstream: ['#32255', '#33377'],
  variant: faultVariant(
    'b11-aborted-load-freed',
    '`fixed` in pull mode whose decode frees an aborted request’s blocks before its READ has landed (B11, before #32255).',
    'releaseBeforeDrain',
  ),
  scenario: pullAbort,
};
