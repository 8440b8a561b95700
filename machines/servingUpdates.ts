/**
 * Pure context updates, one per engine step. The machine's `assign` actions are one-line calls
 * to these, so the arithmetic is unit-tested apart from the statechart.
 */
import type { KvRead, Reply, RequestState, ServingContext } from './context.ts';
import { allocatePages, freePages, writePositions, writersOf } from './kvPagePool.ts';
import { lockPrefix, matchPrefix, type PrefixCacheView, releaseIntoCache } from './prefixCache.ts';
import { type NodeRole, pagesFor, type RequestId } from './scenario.ts';

/** Which side of a request an update concerns. */
export type Side = NodeRole;

function withRequest(
  ctx: ServingContext,
  rid: RequestId,
  update: (r: RequestState) => RequestState,
): ServingContext {
  const current = ctx.requests[rid];
  if (!current) throw new Error(`unknown request ${rid}`);
  return { ...ctx, requests: { ...ctx.requests, [rid]: update(current) } };
}

/** The read set's order: by node, then page, then writer (nobody first). */
function compareReads(a: KvRead, b: KvRead): number {
  if (a.node !== b.node) return a.node < b.node ? -1 : 1;
  if (a.page !== b.page) return a.page - b.page;
  const wa = a.writer ?? '';
  const wb = b.writer ?? '';
  return wa < wb ? -1 : wa > wb ? 1 : 0;
}

/**
 * Adds reads to a request's ghost read set, keeping it deduplicated and sorted (of equal reads,
 * the last given is kept). Returns `existing` itself when nothing is new, so that an unchanged
 * set stays the same object.
 */
export function recordReads(
  existing: readonly KvRead[],
  added: readonly KvRead[],
): readonly KvRead[] {
  // A stable sort keeps equal reads in the order given; each replaces the one before it.
  const all = [...existing, ...added].sort(compareReads);
  const out: KvRead[] = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last !== undefined && compareReads(last, r) === 0) out[out.length - 1] = r;
    else out.push(r);
  }
  const same = out.length === existing.length && out.every((r, i) => sameRead(r, existing[i]));
  return same ? existing : out;
}

function sameRead(a: KvRead, b: KvRead | undefined): boolean {
  return b !== undefined && compareReads(a, b) === 0;
}

/** Intake accepted on `side`: the request will compute or hold KV for `len` tokens. */
export function admit(
  ctx: ServingContext,
  rid: RequestId,
  side: Side,
  len: number,
): ServingContext {
  return withRequest(ctx, rid, (r) =>
    side === 'prefill' ? { ...r, prefillLen: len } : { ...r, decodeLen: len },
  );
}

/**
 * The scheduler's reject path without the admission fix: the prompt is swapped for a one-token
 * placeholder and the request stays live with a pending abort (`set_finish_with_abort`).
 */
export function swapForPlaceholder(
  ctx: ServingContext,
  rid: RequestId,
  side: Side,
): ServingContext {
  return withRequest(ctx, rid, (r) =>
    side === 'prefill'
      ? { ...r, prefillLen: 1, rejectedOnPrefill: true }
      : { ...r, decodeLen: 1, rejectedOnDecode: true },
  );
}

/** Marks a clean rejection at intake on `side` (tokenizer limit or admission retire). */
export function markRejected(ctx: ServingContext, rid: RequestId, side: Side): ServingContext {
  return withRequest(ctx, rid, (r) =>
    side === 'prefill' ? { ...r, rejectedOnPrefill: true } : { ...r, rejectedOnDecode: true },
  );
}

/** Marks an abort after intake (transfer failure, timeout, refused commit). */
export function markAborted(ctx: ServingContext, rid: RequestId): ServingContext {
  return withRequest(ctx, rid, (r) => ({ ...r, aborted: true }));
}

/** Records a terminal reply from one side, counting it for `singleTerminalResponse`. */
export function reply(ctx: ServingContext, rid: RequestId, side: Side, rep: Reply): ServingContext {
  return withRequest(ctx, rid, (r) =>
    side === 'prefill'
      ? {
          ...r,
          prefillReply: rep,
          replyCount: { ...r.replyCount, prefill: r.replyCount.prefill + 1 },
        }
      : {
          ...r,
          decodeReply: rep,
          replyCount: { ...r.replyCount, decode: r.replyCount.decode + 1 },
        },
  );
}

/** The router forwards one side's reply to the client. */
export function forwardReply(ctx: ServingContext, rid: RequestId, from: Side): ServingContext {
  return withRequest(ctx, rid, (r) => ({
    ...r,
    clientReply: (from === 'prefill' ? r.prefillReply : r.decodeReply) ?? {
      status: 502,
      tokens: 0,
    },
    replyCount: { ...r.replyCount, client: r.replyCount.client + 1 },
  }));
}

/**
 * One prefill chunk: computes the next `chunk` tokens of the request's `prefillLen` (allocating
 * the pages they need), writes their KV and attends over everything computed so far. Returns the
 * context unchanged if the pool cannot hold it; the machine's guard prevents that.
 */
export function runPrefillChunk(
  ctx: ServingContext,
  rid: RequestId,
  chunk: number,
  cache?: PrefixCacheView,
): ServingContext {
  // With the prefix cache, the first forward starts after the cached prefix it matched.
  const match = cache ? matchPrefix(ctx, rid, cache) : null;
  const base = match ? lockPrefix(ctx, rid, match) : ctx;
  const r = base.requests[rid];
  if (!r) return ctx;
  const pool = base.prefillPool;
  const prefix = r.prefixPages ?? [];
  const to = Math.min(r.prefillLen, r.prefilled + chunk);
  const need = pagesFor(to, pool.pageSize) - prefix.length - r.prefillPages.length;
  const got = need > 0 ? allocatePages(pool, rid, need) : { pool, pages: [] };
  if (!got) return ctx;
  const pages = [...r.prefillPages, ...got.pages];
  const row = prefix.length === 0 ? pages : [...prefix, ...pages];
  const written = writePositions(got.pool, rid, row, r.prefilled, to);
  const reads = writersOf(written, row, to).map(
    (w): KvRead => ({ node: 'prefill', page: w.page, writer: w.writer }),
  );
  return {
    ...withRequest(base, rid, (q) => ({
      ...q,
      prefillPages: pages,
      prefilled: to,
      reads: recordReads(q.reads, reads),
    })),
    prefillPool: written,
  };
}

/** Pages the next prefill chunk of `rid` must allocate. */
export function pagesForNextChunk(
  ctx: ServingContext,
  rid: RequestId,
  chunk: number,
  cache?: PrefixCacheView,
): number {
  const r = prefillStart(ctx, rid, cache);
  if (!r) return 0;
  const to = Math.min(r.prefillLen, r.prefilled + chunk);
  const held = (r.prefixPages?.length ?? 0) + r.prefillPages.length;
  return Math.max(0, pagesFor(to, ctx.prefillPool.pageSize) - held);
}

/**
 * The request as its next prefill chunk starts: with a prefix-cache hit on its first forward,
 * `prefilled` already covers the matched prefix and `prefixPages` holds its pages.
 */
export function prefillStart(
  ctx: ServingContext,
  rid: RequestId,
  cache?: PrefixCacheView,
): RequestState | undefined {
  const match = cache ? matchPrefix(ctx, rid, cache) : null;
  return (match ? lockPrefix(ctx, rid, match) : ctx).requests[rid];
}

/**
 * Prefill sends KV up to position `upTo` (a non-final chunk sends its page-aligned prefix; the
 * last chunk sends everything and the aux data).
 */
export function sendKv(ctx: ServingContext, rid: RequestId, last: boolean): ServingContext {
  return withRequest(ctx, rid, (r) => {
    const ps = ctx.prefillPool.pageSize;
    const upTo = last ? r.prefilled : Math.floor(r.prefilled / ps) * ps;
    return { ...r, kvSentUpTo: Math.max(r.kvSentUpTo, upTo), kvSent: true };
  });
}

/**
 * The client aborted the request: the router answers 499 and both sides are told. Spends one
 * of the scenario's client aborts when it bounds them (`clientAbortsLeft`).
 */
export function markClientAborted(ctx: ServingContext, rid: RequestId): ServingContext {
  const next = withRequest(ctx, rid, (r) => ({
    ...r,
    clientAborted: true,
    aborted: true,
    clientReply: { status: 499, tokens: 0 },
    replyCount: { ...r.replyCount, client: r.replyCount.client + 1 },
  }));
  const left = ctx.clientAbortsLeft;
  return left === undefined ? next : { ...next, clientAbortsLeft: left - 1 };
}

/** A room failed on a fault: spends one of the scenario's faults when it bounds them. */
export function spendTransferFault(ctx: ServingContext): ServingContext {
  const left = ctx.transferFaultsLeft;
  return left === undefined ? ctx : { ...ctx, transferFaultsLeft: left - 1 };
}

/** How decode releases a request whose room may still have a write in flight. */
export interface ReleaseOptions {
  /**
   * Keep decode's pages while a write for the room is in flight (`lateWrites`), and free them
   * when it has drained (#35049's deferred release). False: free them at once.
   */
  readonly deferWhileWriting: boolean;
  /** Prefill's prefix cache, when the scenario has one: prefill's release goes through it. */
  readonly cache?: PrefixCacheView;
}

/**
 * Frees the request's pages on `side`; slot contents stay as they are. On decode, the request's
 * metadata slot (if any) is freed too, at once. With `deferWhileWriting`, decode's pages stay
 * held (marked `releaseDeferred`) while a KV write for the still-open room is in flight;
 * `landLateWrite` frees them once it has landed.
 */
export function releasePages(
  ctx: ServingContext,
  rid: RequestId,
  side: Side,
  opts: ReleaseOptions = { deferWhileWriting: false },
): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  if (side === 'prefill') {
    if (opts.cache) return releaseIntoCache(ctx, rid, opts.cache);
    return {
      ...withRequest(ctx, rid, (q) => ({ ...q, prefillPages: [] })),
      prefillPool: freePages(ctx.prefillPool, r.prefillPages),
    };
  }
  const withoutAux = freeAuxSlot(ctx, rid);
  // Only a write that will still land holds the pages: one in an open room, or one that a room
  // failed by abort is draining. A failed room's other writes never land.
  const defer =
    opts.deferWhileWriting &&
    r.releaseDeferred !== undefined &&
    (!r.pollFailed || r.draining === true) &&
    kvWritePending(ctx, rid);
  if (defer) return withRequest(withoutAux, rid, (q) => ({ ...q, releaseDeferred: true }));
  return {
    ...withRequest(withoutAux, rid, (q) => ({ ...q, decodePages: [] })),
    decodePool: freePages(ctx.decodePool, r.decodePages),
  };
}

/**
 * Fault B6 (#30937): the error path frees the request's prefill pages while its row (and the
 * transfer still reading them) keeps referring to them; the terminal cleanup frees them again.
 */
export function releasePrefillPagesKeepRow(ctx: ServingContext, rid: RequestId): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  return { ...ctx, prefillPool: freePages(ctx.prefillPool, r.prefillPages) };
}

/** Whether decode can take a metadata slot now (always, when slots are not modelled). */
export function auxSlotAvailable(ctx: ServingContext): boolean {
  return ctx.auxFree === undefined || ctx.auxFree.length > 0;
}

/** The request whose aux data slot `slot` holds now, or null when it holds none. */
export function auxHolder(ctx: ServingContext, slot: number): RequestId | null {
  const found = Object.entries(ctx.requests).find(([, q]) => q.auxIn === slot);
  return found ? found[0] : null;
}

/**
 * Whether the aux data in `rid`'s metadata slot was written for another room (or for none):
 * what decode's `bootstrap_room` check at commit refuses (#17430). False without aux slots.
 */
export function auxRoomMismatch(ctx: ServingContext, rid: RequestId): boolean {
  const slot = ctx.requests[rid]?.auxSlot;
  return slot !== undefined && slot !== null && auxHolder(ctx, slot) !== rid;
}

/** The aux data of `rid`'s room lands in `slot`, replacing whatever the slot held. */
function writeAux(ctx: ServingContext, rid: RequestId, slot: number): ServingContext {
  const requests: Record<RequestId, RequestState> = {};
  for (const [id, q] of Object.entries(ctx.requests)) {
    if (id === rid) requests[id] = { ...q, auxIn: slot };
    else requests[id] = q.auxIn === slot ? { ...q, auxIn: null } : q;
  }
  return { ...ctx, requests };
}

/**
 * Decode frees `rid`'s metadata slot: it goes to the back of the free queue (a FIFO, as
 * `ReqToMetadataIdxAllocator`) and its room is reset (#27374), so it holds no aux data.
 */
function freeAuxSlot(ctx: ServingContext, rid: RequestId): ServingContext {
  const slot = ctx.requests[rid]?.auxSlot;
  if (slot === undefined || slot === null || ctx.auxFree === undefined) return ctx;
  const requests: Record<RequestId, RequestState> = {};
  for (const [id, q] of Object.entries(ctx.requests)) {
    const reset = q.auxIn === slot ? { ...q, auxIn: null } : q;
    requests[id] = id === rid ? { ...reset, auxSlot: null } : reset;
  }
  return { ...ctx, requests, auxFree: [...ctx.auxFree, slot] };
}

/**
 * Decode preallocates pages for `decodeLen` tokens (`_pre_alloc`); their slots are not cleared.
 * With aux slots it also takes the head of the free slot queue. The page and slot ids go to
 * prefill in the metadata (`dstPages`, `dstAux`), where a late write still finds them.
 */
export function preallocateDecode(ctx: ServingContext, rid: RequestId): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  const pool = ctx.decodePool;
  const got = allocatePages(pool, rid, pagesFor(r.decodeLen, pool.pageSize));
  if (!got) return ctx;
  const slot = ctx.auxFree?.[0];
  const next = {
    ...withRequest(ctx, rid, (q) => ({
      ...q,
      decodePages: got.pages,
      ...(q.dstPages === undefined ? {} : { dstPages: got.pages }),
      ...(slot === undefined ? {} : { auxSlot: slot, dstAux: slot }),
    })),
    decodePool: got.pool,
  };
  return slot === undefined ? next : { ...next, auxFree: ctx.auxFree?.slice(1) ?? [] };
}

/**
 * The transfer worker writes the KV prefill has sent and decode has not received yet into
 * decode's destination pages: positions `[kvArrived, min(kvSentUpTo, decodeLen))`. Success means
 * prefill sent what *it* computed; the only reconciliation truncates the source when the
 * destination is shorter.
 */
export function writeTransferredKv(ctx: ServingContext, rid: RequestId): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  // The last chunk carries the aux data, written into the slot named in the metadata.
  const lastChunk = r.kvSentUpTo >= r.prefillLen;
  const withAux =
    lastChunk && r.dstAux !== undefined && r.dstAux !== null ? writeAux(ctx, rid, r.dstAux) : ctx;
  const to = Math.min(r.kvSentUpTo, r.decodeLen);
  if (to <= r.kvArrived) return withAux;
  return {
    ...withRequest(withAux, rid, (q) => ({ ...q, kvArrived: to })),
    decodePool: writePositions(ctx.decodePool, rid, r.dstPages ?? r.decodePages, r.kvArrived, to),
  };
}

/**
 * A write posted before the room failed lands now (`lateWrites`): into the destination pages
 * and aux slot decode sent, whoever holds them now. If decode deferred its release for this
 * write, the drain ends it and the pages are freed.
 */
export function landLateWrite(ctx: ServingContext, rid: RequestId): ServingContext {
  const landed = withRequest(writeTransferredKv(ctx, rid), rid, (q) => ({ ...q, draining: false }));
  return releaseDeferredPages(landed, rid);
}

/** An abort failed the room while a write was in flight (`lateWrites`): the room drains it. */
export function startDraining(ctx: ServingContext, rid: RequestId): ServingContext {
  return withRequest(ctx, rid, (q) => ({ ...q, draining: true }));
}

/**
 * Ends a release decode deferred for the room's in-flight write (`lateWrites`): the write has
 * landed, and the pages are freed now. (A deferral waits only for a write that will land: an
 * open room's, or one an aborted room drains; see `releasePages`.)
 */
function releaseDeferredPages(ctx: ServingContext, rid: RequestId): ServingContext {
  const r = ctx.requests[rid];
  if (r?.releaseDeferred !== true) return ctx;
  return {
    ...withRequest(ctx, rid, (q) => ({ ...q, decodePages: [], releaseDeferred: false })),
    decodePool: freePages(ctx.decodePool, r.decodePages),
  };
}

/** Whether sent KV is still waiting to be written into decode's pages. */
export function kvWritePending(ctx: ServingContext, rid: RequestId): boolean {
  const r = ctx.requests[rid];
  return r !== undefined && Math.min(r.kvSentUpTo, r.decodeLen) > r.kvArrived;
}

/**
 * Decode commits a transferred request: `seq_len` becomes the length decode preallocated for,
 * whatever arrived, and the first output token (from prefill's aux slot) counts as generated.
 */
export function commitDecode(ctx: ServingContext, rid: RequestId): ServingContext {
  const foreign = auxRoomMismatch(ctx, rid);
  return withRequest(ctx, rid, (r) => ({
    ...r,
    seqLen: r.decodeLen,
    generated: 1,
    committed: true,
    ...(r.firstTokenForeign === undefined ? {} : { firstTokenForeign: foreign }),
  }));
}

/** Whether the next decode step needs a fresh page, and whether one is free. */
export function decodeStepFits(ctx: ServingContext, rid: RequestId): boolean {
  const r = ctx.requests[rid];
  if (!r) return false;
  const ps = ctx.decodePool.pageSize;
  const needsPage = Math.floor(r.seqLen / ps) >= r.decodePages.length;
  return !needsPage || ctx.decodePool.free.length > 0;
}

/**
 * One decode forward: store the new token's KV at position `seq_len` (taking a page when the
 * row is full), then attend over positions `[0, seq_len]`.
 */
export function runDecodeStep(ctx: ServingContext, rid: RequestId): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  let pool = ctx.decodePool;
  let pages = r.decodePages;
  if (Math.floor(r.seqLen / pool.pageSize) >= pages.length) {
    const got = allocatePages(pool, rid, 1);
    if (!got) return ctx;
    pool = got.pool;
    pages = [...pages, ...got.pages];
  }
  pool = writePositions(pool, rid, pages, r.seqLen, r.seqLen + 1);
  const reads = writersOf(pool, pages, r.seqLen + 1).map(
    (w): KvRead => ({ node: 'decode', page: w.page, writer: w.writer }),
  );
  return {
    ...withRequest(ctx, rid, (q) => ({
      ...q,
      decodePages: pages,
      seqLen: q.seqLen + 1,
      generated: q.generated + 1,
      reads: recordReads(q.reads, reads),
    })),
    decodePool: pool,
  };
}

/** Records that the room entered KVPoll `poll` (ghost for `kvPollMonotone`). */
export function recordPoll(ctx: ServingContext, rid: RequestId, poll: number): ServingContext {
  return withRequest(ctx, rid, (r) =>
    poll === 0 ? { ...r, pollFailed: true } : { ...r, pollPeak: Math.max(r.pollPeak, poll) },
  );
}
