/**
 * What one step changed, as change records (`change.ts`): region states and the transfer room,
 * each request's own record and optional mechanisms, page owners and last writers, attention
 * reads and replies. `src/export/changeText.ts` tells them as sentences.
 */

import {
  regionPath,
  requestIds,
  type ServingState,
  tenantOf,
} from '../../invariants/vocabulary.ts';
import type { DecodedContext, RequestState } from '../../machines/context.ts';
import { decodeContext } from '../../machines/contextCodec.ts';
import { type ExternalEvent, eventActor } from '../../machines/events.ts';
import type { PagePool } from '../../machines/kvPagePool.ts';
import { nodeOwnerOf } from '../../machines/prefixCache.ts';
import { requestRegions } from '../../machines/regionIds.ts';
import type { NodeRole, RequestId } from '../../machines/scenario.ts';
import type { KvWriter, TraceChange } from './change.ts';
import type { RegionSnapshot, Trace, TraceStep } from './outcome.ts';

/** Every region's state, by request and region. */
export function regionSnapshot(s: ServingState): RegionSnapshot {
  const out: Record<string, Record<string, string>> = {};
  for (const rid of requestIds(s)) {
    const regions: Record<string, string> = {};
    for (const region of requestRegions) regions[region] = regionPath(s, rid, region);
    out[rid] = regions;
  }
  return out;
}

function writerOf(s: ServingState, rid: RequestId | null): KvWriter | null {
  return rid === null ? null : { rid, tenant: tenantOf(s, rid) ?? null };
}

/** One pool across a step: its node, before (`a`) and after (`b`), and the state after. */
interface PoolStep {
  readonly node: NodeRole;
  readonly a: PagePool;
  readonly b: PagePool;
  readonly next: ServingState;
}

/** The owner change of one page: allocated, freed, or kept in the prefix cache. */
function ownerChange({ node, a, b, next }: PoolStep, page: number): TraceChange[] {
  const was = a.owner[page] ?? null;
  const now = b.owner[page] ?? null;
  if (was === null && now !== null) {
    const slots = a.writer.slice(page * a.pageSize, (page + 1) * a.pageSize);
    const heldKvOf = [...new Set(slots.filter((w) => w !== null))];
    return [{ kind: 'pageAllocated', node, page, rid: now, heldKvOf }];
  }
  if (was !== null && now === null) {
    const owner = node === 'prefill' ? nodeOwnerOf(next.context, page) : -1;
    const cachedBy = owner === -1 ? null : (next.context.layout.requests[owner] ?? null);
    return [{ kind: 'pageFreed', node, page, rid: was, cachedBy: writerOf(next, cachedBy) }];
  }
  return [];
}

/** The slots of one page whose last writer changed. */
function slotChanges({ node, a, b, next }: PoolStep, page: number): TraceChange[] {
  const out: TraceChange[] = [];
  for (let off = 0; off < b.pageSize; off++) {
    const at = page * b.pageSize + off;
    const was = a.writer[at] ?? null;
    const now = b.writer[at] ?? null;
    if (was === now) continue;
    const slot = b.pageSize > 1 ? off : null;
    out.push({ kind: 'slotWritten', node, page, slot, writer: writerOf(next, now), was });
  }
  return out;
}

/** A pool's changes, page by page: the owner, then each slot. */
function poolChanges(pool: PoolStep): TraceChange[] {
  const out: TraceChange[] = [];
  for (let page = 0; page < pool.b.owner.length; page++) {
    out.push(...ownerChange(pool, page), ...slotChanges(pool, page));
  }
  return out;
}

/** What the optional mechanisms (aux slots, the prefix cache, deferred release) changed. */
function mechanismChanges(ra: RequestState, rb: RequestState, rid: RequestId): TraceChange[] {
  const out: TraceChange[] = [];
  if (rb.auxSlot !== ra.auxSlot && rb.auxSlot !== undefined && rb.auxSlot !== null)
    out.push({ kind: 'auxSlotTaken', rid, slot: rb.auxSlot });
  if (rb.auxSlot !== ra.auxSlot && (rb.auxSlot ?? null) === null && ra.auxSlot != null)
    out.push({ kind: 'auxSlotFreed', rid, slot: ra.auxSlot });
  if (rb.auxIn !== ra.auxIn && rb.auxIn !== undefined && rb.auxIn !== null)
    out.push({ kind: 'auxDataWritten', rid, slot: rb.auxIn });
  if (rb.firstTokenForeign && !ra.firstTokenForeign) out.push({ kind: 'foreignFirstToken', rid });
  if (rb.releaseDeferred && !ra.releaseDeferred) out.push({ kind: 'releaseDeferred', rid });
  const hostA = ra.hostKv?.length ?? 0;
  const hostB = rb.hostKv?.length ?? 0;
  if (hostB > 0 && hostA === 0) out.push({ kind: 'kvOffloaded', rid, positions: hostB });
  if (hostA > 0 && hostB === 0 && rb.decodePages.length > 0)
    out.push({ kind: 'kvLoaded', rid, positions: hostA });
  const pages = rb.prefixPages ?? [];
  if (pages.length > 0 && (ra.prefixPages ?? []).length === 0)
    out.push({ kind: 'prefixReused', rid, pages });
  return out;
}

/** How `rid`'s regions moved: the transfer room as its KVPoll, the others as state paths. */
function regionChanges(a: ServingState, b: ServingState, rid: RequestId): TraceChange[] {
  const out: TraceChange[] = [];
  for (const region of requestRegions) {
    const from = regionPath(a, rid, region);
    const to = regionPath(b, rid, region);
    if (from === to) continue;
    out.push(
      region === 'transfer'
        ? { kind: 'roomPoll', rid, from, to }
        : { kind: 'regionMoved', rid, region, from, to },
    );
  }
  return out;
}

/** What changed in `rid`'s own record: placeholders, a pending abort, KV arrival, commit. */
function requestChanges(
  a: ServingState,
  b: ServingState,
  rid: RequestId,
  ra: RequestState,
  rb: RequestState,
): TraceChange[] {
  const out: TraceChange[] = [];
  if (rb.prefillLen === 1 && rb.rejectedOnPrefill && ra.prefillLen !== 1)
    out.push({ kind: 'placeholderSwapped', rid, side: 'prefill' });
  if (rb.decodeLen === 1 && rb.rejectedOnDecode && ra.decodeLen !== 1)
    out.push({ kind: 'placeholderSwapped', rid, side: 'decode' });
  // An abort recorded while prefill stays where it is: an error left pending (`to_finish`).
  const stays = (region: 'prefill' | 'decode') =>
    regionPath(a, rid, region) === regionPath(b, rid, region);
  const sideAborted =
    (rb.prefillAbort !== null && ra.prefillAbort === null) ||
    (rb.decodeAbort !== null && ra.decodeAbort === null);
  if (sideAborted && !rb.clientAborted && stays('prefill') && stays('decode'))
    out.push({ kind: 'abortPending', rid });
  if (rb.kvArrived !== ra.kvArrived) out.push({ kind: 'kvArrived', rid, positions: rb.kvArrived });
  if (rb.committed && !ra.committed) out.push({ kind: 'committed', rid, seqLen: rb.seqLen });
  return out;
}

/** `rid`'s new attention reads, each marked foreign when another tenant wrote the slot. */
function readChanges(
  b: ServingState,
  rid: RequestId,
  ra: RequestState,
  rb: RequestState,
): TraceChange[] {
  const fresh = rb.reads.filter(
    (x) => !ra.reads.some((y) => y.node === x.node && y.page === x.page && y.writer === x.writer),
  );
  return fresh.map(
    (read): TraceChange => ({
      kind: 'slotRead',
      rid,
      node: read.node,
      page: read.page,
      writer: writerOf(b, read.writer),
      foreign: read.writer !== null && tenantOf(b, read.writer) !== tenantOf(b, rid),
    }),
  );
}

/**
 * `rid`'s new replies: prefill's and decode's to the router, then the router's to the client.
 * A reply is new when its side's reply count grew (every reply, even a repeat, counts).
 */
function replyChanges(rid: RequestId, ra: RequestState, rb: RequestState): TraceChange[] {
  const out: TraceChange[] = [];
  for (const [side, after] of [
    ['prefill', rb.prefillReply],
    ['decode', rb.decodeReply],
    ['client', rb.clientReply],
  ] as const) {
    if (after && rb.replyCount[side] > ra.replyCount[side])
      out.push({ kind: 'reply', rid, side, status: after.status, tokens: after.tokens });
  }
  return out;
}

/** Both states of a step with their contexts decoded (rendering is a cold path). */
interface DecodedStep {
  readonly da: DecodedContext;
  readonly db: DecodedContext;
}

/** The request records of `rid` before and after, when both exist. */
function recordsOf({ da, db }: DecodedStep, rid: RequestId) {
  const ra = da.requests[rid];
  const rb = db.requests[rid];
  return ra && rb ? { ra, rb } : null;
}

/** What changed for `rid` itself: its regions, its own record and its mechanisms. */
function ownChanges(
  a: ServingState,
  b: ServingState,
  d: DecodedStep,
  rid: RequestId,
): TraceChange[] {
  const records = recordsOf(d, rid);
  if (!records) return regionChanges(a, b, rid);
  const { ra, rb } = records;
  return [
    ...regionChanges(a, b, rid),
    ...requestChanges(a, b, rid, ra, rb),
    ...mechanismChanges(ra, rb, rid),
  ];
}

/** What `rid` observed: its new reads, then its new replies. */
function observedChanges(b: ServingState, d: DecodedStep, rid: RequestId): TraceChange[] {
  const records = recordsOf(d, rid);
  if (!records) return [];
  const { ra, rb } = records;
  return [...readChanges(b, rid, ra, rb), ...replyChanges(rid, ra, rb)];
}

/**
 * The changes from `a` to `b`, in a fixed order: per request its regions, its own record and
 * its mechanisms; then the prefill and the decode pool, page by page; then per request its new
 * reads and replies.
 */
export function stepChanges(a: ServingState, b: ServingState): TraceChange[] {
  return changesOf(a, b, { da: decodeContext(a.context), db: decodeContext(b.context) });
}

/** `stepChanges` with both contexts decoded already (`d`). */
function changesOf(a: ServingState, b: ServingState, d: DecodedStep): TraceChange[] {
  const rids = requestIds(b);
  return [
    ...rids.flatMap((rid) => ownChanges(a, b, d, rid)),
    ...poolChanges({ node: 'prefill', a: d.da.prefillPool, b: d.db.prefillPool, next: b }),
    ...poolChanges({ node: 'decode', a: d.da.decodePool, b: d.db.decodePool, next: b }),
    ...rids.flatMap((rid) => observedChanges(b, d, rid)),
  ];
}

/**
 * A trace told step by step: from `initial`, each event and the state it led to, with the
 * acting component, the request's tenant, what changed and where every region stands.
 */
export function traceFrom(
  initial: ServingState,
  path: readonly { readonly event: ExternalEvent; readonly state: ServingState }[],
  message: string,
): Trace {
  let prev = initial;
  // Each state is decoded once, though it is the end of one step and the start of the next.
  let decoded = decodeContext(initial.context);
  const steps = path.map(({ event, state }, i): TraceStep => {
    const next = decodeContext(state.context);
    const step = {
      step: i + 1,
      actor: eventActor[event.type],
      event: event.type,
      rid: event.rid,
      tenant: tenantOf(state, event.rid) ?? '?',
      changes: changesOf(prev, state, { da: decoded, db: next }),
      regions: regionSnapshot(state),
    };
    prev = state;
    decoded = next;
    return step;
  });
  return { message, steps };
}
