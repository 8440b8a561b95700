/**
 * B4: decode frees an aborted request's preallocated pages while a KV write for its room is
 * still in flight; the pages go to another request and the stale write lands in them. The
 * correct engine (#35049's deferred release) keeps the pages until the write has drained.
 */
import type { Scenario } from '../../../machines/scenario.ts';
import type { CatalogueEntry } from '../entry.ts';
import { faultVariant } from '../faultVariant.ts';

/**
 * Two one-token requests of different tenants; a client may abort, and a write posted before
 * an abort still lands (`lateWrites`). A1's client aborts while its KV write is in flight.
 */
export const lateWrite: Scenario = {
  name: 'late-write',
  description:
    'A client aborts while its KV write is in flight; the write still lands, after decode may have handed its pages to another tenant.',
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
  lateWrites: true,
  witnesses: ['someRequestDecoded', 'pageReusedAcrossTenants', 'clientAborted', 'lateWriteLanded'],
};

/** Catalogue entry B4. */
export const entry: CatalogueEntry = {
  id: 'B4',
  description:
    'Decode frees an aborted request’s pages while a prefill RDMA write is still in flight; the pages are reallocated and the stale write lands in another tenant’s KV.',
  upstream: ['#24527', '#24580', '#27372', '#35049'],
  variant: faultVariant(
    'b4-release-before-drain',
    '`fixed` whose decode frees an aborted request’s pages at once, before the room’s in-flight write has drained (B4).',
    'releaseBeforeDrain',
  ),
  scenario: lateWrite,
};
