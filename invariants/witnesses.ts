/**
 * Witnesses: situations that must be reachable in a scenario, so that a pass is not vacuous.
 * A scenario names the ones it must reach; the checker reports every one.
 */
import type { RequestState } from '../machines/context.ts';
import { nodeOwnerOf } from '../machines/prefixCache.ts';
import type { RequestId } from '../machines/scenario.ts';
import { witness } from './property.ts';
import {
  heldPages,
  regionIn,
  requestEntries,
  type ServingState,
  tenantOf,
  wasRejected,
} from './vocabulary.ts';

/** Some request was rejected at intake (the reject path was exercised). */
export const someRequestRejected = witness(
  'Some request is rejected at intake by a tokenizer or scheduler limit.',
  (s) => requestEntries(s).some(([, r]) => wasRejected(r)),
);

/** Some request ran a decode forward (attention over decode's pages was exercised). */
export const someRequestDecoded = witness(
  'Some request runs at least one decode step over its KV.',
  (s) => requestEntries(s).some(([, r]) => r.reads.some((x) => x.node === 'decode')),
);

/** A page changed hands between tenants with the old tenant's KV still in it. */
export const pageReusedAcrossTenants = witness(
  'A request holds a page that still holds KV written by another tenant.',
  (s) =>
    (['prefill', 'decode'] as const).some((node) => {
      const pool = node === 'prefill' ? s.context.prefillPool : s.context.decodePool;
      return heldPages(s, node).some(({ page, rid }) => {
        const slots = pool.writer.slice(page * pool.pageSize, (page + 1) * pool.pageSize);
        return slots.some((w) => w !== null && tenantOf(s, w) !== tenantOf(s, rid));
      });
    }),
);

/** The owner of the cache node whose pages `r`'s prefill row starts with, or null. */
function prefixOwner(s: ServingState, r: RequestState): RequestId | null {
  const first = r.prefixPages?.[0];
  return first === undefined ? null : nodeOwnerOf(s.context, first);
}

/** A request reused prefix-cache pages that a request of its own tenant inserted. */
export const prefixCacheHit = witness(
  'A request’s prefill reuses prefix-cache pages inserted by a request of its own tenant.',
  (s) =>
    requestEntries(s).some(([rid, r]) => {
      const owner = prefixOwner(s, r);
      return owner !== null && tenantOf(s, owner) === tenantOf(s, rid);
    }),
);

/**
 * A request's prefix lookup meets a node another tenant inserted: the request is admitted on
 * prefill and has computed nothing (its first forward, where the lookup runs, is next) while
 * such a node is cached, or its row already starts with that node's pages. The salted cache
 * refuses the node; a store that ignores the salt shares it. A lookup meets a node of its own
 * prefix group (`prefixGroups`), and runs at the request's first forward on prefill.
 */
export const prefixLookupFindsOtherTenant = witness(
  'A request’s prefix-cache lookup meets a node inserted by another tenant (whether or not the cache shares it).',
  (s) =>
    requestEntries(s).some(([rid, r]) => {
      const owner = prefixOwner(s, r);
      if (owner !== null) return tenantOf(s, owner) !== tenantOf(s, rid);
      const group = s.context.prefixGroups?.[rid] ?? null;
      const lookupNext = r.prefillLen > 0 && r.prefilled === 0 && !wasRejected(r) && !r.aborted;
      return (
        group !== null &&
        lookupNext &&
        !regionIn(s, rid, 'prefill', 'done') &&
        requestEntries(s).some(
          ([owner, q]) =>
            (q.cachedPrefix ?? null) !== null &&
            s.context.prefixGroups?.[owner] === group &&
            tenantOf(s, owner) !== tenantOf(s, rid),
        )
      );
    }),
);

/** Two rooms were given the same metadata slot: the slot was freed and reused. */
export const auxSlotReused = witness(
  'A metadata (aux) slot that one request’s room was given is given again to a second request’s room.',
  (s) => {
    const seen = new Set<number>();
    return requestEntries(s).some(([, r]) => {
      const slot = r.dstAux;
      if (slot === undefined || slot === null) return false;
      if (seen.has(slot)) return true;
      seen.add(slot);
      return false;
    });
  },
);

/**
 * With `lateWrites`: a room failed after its last chunk was sent, and everything sent has
 * arrived in decode's pages. A room whose last chunk lands while it is open ends in Success, so
 * that write landed after the abort, through `draining`.
 */
export const lateWriteLanded = witness(
  'A KV write posted before its room was aborted lands after the abort.',
  (s) =>
    requestEntries(s).some(
      ([rid, r]) =>
        r.draining === false &&
        regionIn(s, rid, 'transfer', 'failed') &&
        r.prefillLen > 0 &&
        r.kvSentUpTo >= r.prefillLen &&
        r.kvArrived > 0 &&
        r.kvArrived >= Math.min(r.kvSentUpTo, r.decodeLen),
    ),
);

/**
 * A room failed on a transfer fault: it is Failed while neither side has aborted the request
 * nor rejected it (every abort marks the request before its room fails; a fault fails the room
 * first, and the sides learn of it afterwards).
 */
export const transferFailed = witness(
  'A request’s KV transfer fails (the room is Failed by a fault, not by an abort).',
  (s) =>
    requestEntries(s).some(
      ([, r]) => r.pollFailed && !r.aborted && !r.clientAborted && !wasRejected(r),
    ),
);

/** Some client aborted its request before the router replied. */
export const clientAborted = witness(
  'A client aborts its request before the router has replied.',
  (s) => requestEntries(s).some(([, r]) => r.clientAborted),
);

/** Prefill sent KV for a non-final chunk: some positions, but not the whole prompt. */
export const chunkedTransfer = witness(
  'Prefill sends a non-final chunk’s KV to decode before the request’s last chunk is computed.',
  (s) => requestEntries(s).some(([, r]) => r.kvSentUpTo > 0 && r.kvSentUpTo < r.prefillLen),
);
