/**
 * Witnesses: situations that must be reachable in a scenario, so that a pass is not vacuous.
 * A scenario names the ones it must reach; the checker reports every one.
 */
import { nodeOwnerOf } from '../machines/prefixCache.ts';
import type { NodeRole } from '../machines/scenario.ts';
import { poolView, type RequestView, requestViews } from '../machines/servingView.ts';
import { witness } from './property.ts';
import {
  pageHoldsOtherTenant,
  regionIn,
  type ServingState,
  someRequest,
  wasRejected,
} from './vocabulary.ts';

/** Some request was rejected at intake (the reject path was exercised). */
export const someRequestRejected = witness(
  'Some request is rejected at intake by a tokenizer or scheduler limit.',
  (s) => someRequest(s, wasRejected),
);

/** Some request ran a decode forward (attention over decode's pages was exercised). */
export const someRequestDecoded = witness(
  'Some request runs at least one decode step over its KV.',
  (s) => someRequest(s, readDecodePages),
);

/** Whether `r` read some slot of decode's pool. */
function readDecodePages(r: RequestView): boolean {
  return r.readOn('decode');
}

/** A page changed hands between tenants with the old tenant's KV still in it. */
export const pageReusedAcrossTenants = witness(
  'A request holds a page that still holds KV written by another tenant.',
  (s) => holdsForeignKv(s, 'prefill') || holdsForeignKv(s, 'decode'),
);

/** Whether a request holds a page of `node` some slot of which another tenant last wrote. */
function holdsForeignKv(s: ServingState, node: NodeRole): boolean {
  const pool = poolView(s.context, node);
  const rs = requestViews(s.context);
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    const n = r.pageCount(node);
    for (let k = 0; k < n; k++) {
      if (pageHoldsOtherTenant(pool, r.pageAt(node, k), r.tenant)) return true;
    }
  }
  return false;
}

/** The index of the request whose cache node `r`'s prefill row starts with, or -1. */
function prefixOwner(s: ServingState, r: RequestView): number {
  const slot = r.layout.lists.prefixPages;
  return r.listLen(slot) === 0 ? -1 : nodeOwnerOf(s.context, r.listAt(slot, 0));
}

/** A request reused prefix-cache pages that a request of its own tenant inserted. */
export const prefixCacheHit = witness(
  'A request’s prefill reuses prefix-cache pages inserted by a request of its own tenant.',
  (s) => someRequest(s, reusesOwnTenantsPrefix),
);

/** Whether `r`'s prefill row starts with a cache node a request of its own tenant inserted. */
function reusesOwnTenantsPrefix(r: RequestView, s: ServingState): boolean {
  const owner = prefixOwner(s, r);
  return owner !== -1 && r.layout.tenants[owner] === r.tenant;
}

/**
 * A request's prefix lookup meets a node another tenant inserted: the request is admitted on
 * prefill and has computed nothing (its first forward, where the lookup runs, is next) while
 * such a node is cached, or its row already starts with that node's pages. The salted cache
 * refuses the node; a store that ignores the salt shares it. A lookup meets a node of its own
 * prefix group (`prefixGroups`), and runs at the request's first forward on prefill.
 */
export const prefixLookupFindsOtherTenant = witness(
  'A request’s prefix-cache lookup meets a node inserted by another tenant (whether or not the cache shares it).',
  (s) => someRequest(s, lookupMeetsOtherTenant),
);

/** Whether `r`'s prefix lookup meets (or met) a node another tenant inserted. */
function lookupMeetsOtherTenant(r: RequestView, s: ServingState): boolean {
  const L = r.layout;
  const owner = prefixOwner(s, r);
  if (owner !== -1) return L.tenants[owner] !== r.tenant;
  const group = L.prefixGroups[r.i] ?? null;
  const lookupNext = r.prefillLen > 0 && r.prefilled === 0 && !wasRejected(r) && !r.aborted;
  if (group === null || !lookupNext || regionIn(s, r.id, 'prefill', 'done')) return false;
  const rs = requestViews(s.context);
  for (let j = 0; j < rs.length; j++) {
    const q = rs[j] as RequestView;
    if (q.cachedLockRef !== -1 && L.prefixGroups[j] === group && q.tenant !== r.tenant) {
      return true;
    }
  }
  return false;
}

/** Two rooms were given the same metadata slot: the slot was freed and reused. */
export const auxSlotReused = witness(
  'A metadata (aux) slot that one request’s room was given is given again to a second request’s room.',
  (s) => {
    const rs = requestViews(s.context);
    for (let i = 0; i < rs.length; i++) {
      const slot = (rs[i] as RequestView).dstAux;
      if (slot === -1) continue;
      for (let j = 0; j < i; j++) if ((rs[j] as RequestView).dstAux === slot) return true;
    }
    return false;
  },
);

/**
 * With `lateWrites`: a room failed after its last chunk was sent, and everything sent has
 * arrived in decode's pages. A room whose last chunk lands while it is open ends in Success, so
 * that write landed after the abort, through `draining`.
 */
export const lateWriteLanded = witness(
  'A KV write posted before its room was aborted lands after the abort.',
  (s) => s.context.layout.mechanisms.lateWrites && someRequest(s, lateWriteLandedFor),
);

/** Whether `r`'s room failed, not draining, with everything sent arrived. */
function lateWriteLandedFor(r: RequestView, s: ServingState): boolean {
  return (
    !r.draining &&
    regionIn(s, r.id, 'transfer', 'failed') &&
    r.prefillLen > 0 &&
    r.kvSentUpTo >= r.prefillLen &&
    r.kvArrived > 0 &&
    r.kvArrived >= Math.min(r.kvSentUpTo, r.decodeLen)
  );
}

/**
 * A room failed on a transfer fault: it is Failed while neither side has aborted the request
 * nor rejected it (every abort marks the request before its room fails; a fault fails the room
 * first, and the sides learn of it afterwards).
 */
export const transferFailed = witness(
  'A request’s KV transfer fails (the room is Failed by a fault, not by an abort).',
  (s) => someRequest(s, failedByFault),
);

/** Whether `r`'s room is Failed while neither side aborted or rejected it. */
function failedByFault(r: RequestView): boolean {
  return r.pollFailed && !r.aborted && !r.clientAborted && !wasRejected(r);
}

/** Some client aborted its request before the router replied. */
export const clientAborted = witness(
  'A client aborts its request before the router has replied.',
  (s) => someRequest(s, abortedByClient),
);

/** Whether `r`'s client aborted it. */
function abortedByClient(r: RequestView): boolean {
  return r.clientAborted;
}

/** Decode retracted a running request (its batch's next step found no page). */
export const requestRetracted = witness(
  'Decode retracts a running request: its KV is copied to host memory and its pages are freed.',
  (s) => someRequest(s, isRetracted),
);

/** Whether `r` is retracted now. */
function isRetracted(r: RequestView): boolean {
  return r.retracted;
}

/** Prefill sent KV for a non-final chunk: some positions, but not the whole prompt. */
export const chunkedTransfer = witness(
  'Prefill sends a non-final chunk’s KV to decode before the request’s last chunk is computed.',
  (s) => someRequest(s, sentPartOfPrompt),
);

/** Whether KV was sent for part of `r`'s prompt, not all of it. */
function sentPartOfPrompt(r: RequestView): boolean {
  return r.kvSentUpTo > 0 && r.kvSentUpTo < r.prefillLen;
}
