/**
 * The context updates, one per engine step, written once against the state vector
 * (`layout.ts`): each writes `c.words` in place. The machine's actions run them two ways
 * (`servingSetup.ts`): XState on a copy inside `assign`, the fast engine in place on its
 * scratch vector. Guards and properties use the read-only helpers at the end.
 */
import { type AbortCause, abortCause, kvPoll, type Reply, type ServingContext } from './context.ts';
import {
  allocatePages,
  canAllocate,
  forEachWriter,
  freeCount,
  freePages,
  slotOf,
  writePositions,
} from './kvPagePool.ts';
import { F, type ListSlot, type RequestPlace } from './layout.ts';
import {
  lockPrefix,
  matchPrefix,
  type PrefixCacheView,
  type PrefixMatch,
  releaseIntoCache,
} from './prefixCache.ts';
import {
  clearDecodeEntry,
  clearPrefillEntry,
  concludeRoom,
  destinationOf,
  markCrossed,
  registerDestination,
} from './rooms.ts';
import { type NodeRole, pagesFor, type RequestId } from './scenario.ts';
import {
  listAt,
  listClear,
  listCopy,
  listDropHead,
  listItems,
  listLen,
  listPush,
  listSet,
  setBit,
} from './vectorOps.ts';

/** Which side of a request an update concerns. */
export type Side = NodeRole;

/** Where request `rid` lives in `c` (a shared object); throws on an unknown id. */
export function at(c: ServingContext, rid: RequestId): RequestPlace {
  return c.layout.placeOf(rid);
}

/** Field `f` of request `rid`. */
export function field(c: ServingContext, rid: RequestId, f: number): number {
  return c.words[at(c, rid).b + f] as number;
}

/** The pages of a request-block list, in order. */
export function pagesIn(c: ServingContext, b: number, slot: ListSlot): number[] {
  return listItems(c.words, b, slot);
}

/** Records the row's writers of positions `[0, to)` as attention reads on `node`. */
function recordReadsOf(
  c: ServingContext,
  r: RequestPlace,
  node: NodeRole,
  row: readonly number[],
  to: number,
): void {
  const L = c.layout;
  const w = c.words;
  const bits = r.b + L.lists.reads;
  forEachWriter(w, L.pool(node), L.pageSize, row, to, (page, writer) => {
    noteRead(c, r, node, page);
    setBit(w, bits, L.readBit(node, page, writer));
  });
}

/** Intake accepted on `side`: the request will compute or hold KV for `len` tokens. */
export function admit(c: ServingContext, rid: RequestId, side: Side, len: number): void {
  c.words[at(c, rid).b + (side === 'prefill' ? F.prefillLen : F.decodeLen)] = len;
}

/**
 * The scheduler's reject path without the admission fix: the prompt is swapped for a one-token
 * placeholder and the request stays live with a pending abort (`set_finish_with_abort`).
 */
export function swapForPlaceholder(c: ServingContext, rid: RequestId, side: Side): void {
  admit(c, rid, side, 1);
  markRejected(c, rid, side);
}

/** Marks a clean rejection at intake on `side` (tokenizer limit or admission retire). */
export function markRejected(c: ServingContext, rid: RequestId, side: Side): void {
  c.words[at(c, rid).b + (side === 'prefill' ? F.rejectedOnPrefill : F.rejectedOnDecode)] = 1;
}

/** Marks an abort after intake (transfer failure, timeout, refused commit). */
export function markAborted(
  c: ServingContext,
  rid: RequestId,
  side: Side,
  cause: AbortCause,
): void {
  const r = at(c, rid);
  c.words[r.b + (side === 'prefill' ? F.prefillAbort : F.decodeAbort)] = abortCause[cause];
  if (side === 'prefill' || !c.layout.mechanisms.sharedRooms) return;
  // Decode ends the request through `failure_exception`, which clears the room's entry; a
  // Failed its own room never reached was another incarnation's.
  if (cause === 'transferFailed' && c.words[r.b + F.pollFailed] === 0) markCrossed(c, r, 1);
  clearDecodeEntry(c, r);
}

/** Records a terminal reply from one side, counting it for `singleTerminalResponse`. */
export function reply(c: ServingContext, rid: RequestId, side: Side, rep: Reply): void {
  const w = c.words;
  const { b } = at(c, rid);
  const status = side === 'prefill' ? F.prefillReplyStatus : F.decodeReplyStatus;
  const count = side === 'prefill' ? F.repliesPrefill : F.repliesDecode;
  w[b + status] = rep.status;
  w[b + status + 1] = rep.tokens;
  w[b + count] = (w[b + count] as number) + 1;
}

/** The router forwards one side's reply to the client (502 when that side sent none). */
export function forwardReply(c: ServingContext, rid: RequestId, from: Side): void {
  const w = c.words;
  const { b } = at(c, rid);
  const src = from === 'prefill' ? F.prefillReplyStatus : F.decodeReplyStatus;
  const status = w[b + src] as number;
  w[b + F.clientReplyStatus] = status === 0 ? 502 : status;
  w[b + F.clientReplyTokens] = status === 0 ? 0 : (w[b + src + 1] as number);
  w[b + F.repliesClient] = (w[b + F.repliesClient] as number) + 1;
}

/** The prefill row of a request: its locked cached prefix pages, then its own pages. */
function prefillRow(c: ServingContext, b: number): number[] {
  const L = c.layout.lists;
  const own = pagesIn(c, b, L.prefillPages);
  const prefix = listLen(c.words, b, L.prefixPages);
  return prefix === 0 ? own : [...pagesIn(c, b, L.prefixPages), ...own];
}

/**
 * One prefill chunk: computes the next `chunk` tokens of the request's `prefillLen` (allocating
 * the pages they need), writes their KV and attends over everything computed so far. Changes
 * nothing if the pool cannot hold it; the machine's guard prevents that.
 */
export function runPrefillChunk(
  c: ServingContext,
  rid: RequestId,
  chunk: number,
  cache?: PrefixCacheView,
): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  // With the prefix cache, the first forward starts after the cached prefix it matched.
  const match = cache ? matchPrefix(c, r.i, cache) : null;
  const need = chunkPages(c, r, startWith(c, r, match), chunk);
  if (!canAllocate(w, L.prefill, need)) return;
  if (match) lockPrefix(c, r.i, match);
  const from = w[r.b + F.prefilled] as number;
  const to = Math.min(w[r.b + F.prefillLen] as number, from + chunk);
  allocatePages(w, L.prefill, r.code, need, r.b, L.lists.prefillPages);
  const row = prefillRow(c, r.b);
  writePositions(w, L.prefill, L.pageSize, r.code, row, from, to);
  recordReadsOf(c, r, 'prefill', row, to);
  w[r.b + F.prefilled] = to;
}

/**
 * Where `rid`'s next prefill chunk starts: with a prefix-cache hit on its first forward, the
 * tokens the matched prefix covers and the pages it brings; otherwise what the request has.
 */
function prefillStart(c: ServingContext, rid: RequestId, cache?: PrefixCacheView): PrefillStart {
  const r = at(c, rid);
  return startWith(c, r, cache ? matchPrefix(c, r.i, cache) : null);
}

/** Tokens computed and pages held when request `r`'s next chunk starts, given its cache hit. */
interface PrefillStart {
  readonly prefilled: number;
  readonly held: number;
}

/** `prefillStart` for request `r` whose cache hit (or miss, null) is `match`. */
function startWith(c: ServingContext, r: RequestPlace, match: PrefixMatch | null): PrefillStart {
  const w = c.words;
  const L = c.layout.lists;
  const own = listLen(w, r.b, L.prefillPages);
  if (match) return { prefilled: match.pages * c.layout.pageSize, held: match.pages + own };
  return { prefilled: w[r.b + F.prefilled] as number, held: listLen(w, r.b, L.prefixPages) + own };
}

/** Pages request `r`'s next chunk of `chunk` tokens must allocate, starting at `start`. */
function chunkPages(
  c: ServingContext,
  r: RequestPlace,
  start: PrefillStart,
  chunk: number,
): number {
  const to = Math.min(c.words[r.b + F.prefillLen] as number, start.prefilled + chunk);
  return Math.max(0, pagesFor(to, c.layout.pageSize) - start.held);
}

/** Pages the next prefill chunk of `rid` must allocate. */
export function pagesForNextChunk(
  c: ServingContext,
  rid: RequestId,
  chunk: number,
  cache?: PrefixCacheView,
): number {
  return chunkPages(c, at(c, rid), prefillStart(c, rid, cache), chunk);
}

/** Whether another prefill chunk follows the next one (with a prefix hit counted in). */
export function moreChunksAfterNext(
  c: ServingContext,
  rid: RequestId,
  chunk: number,
  cache?: PrefixCacheView,
): boolean {
  return prefillStart(c, rid, cache).prefilled + chunk < field(c, rid, F.prefillLen);
}

/**
 * Prefill sends KV up to position `upTo` (a non-final chunk sends its page-aligned prefix; the
 * last chunk sends everything and the aux data).
 */
export function sendKv(c: ServingContext, rid: RequestId, last: boolean): void {
  const w = c.words;
  const { b } = at(c, rid);
  const ps = c.layout.pageSize;
  const prefilled = w[b + F.prefilled] as number;
  const upTo = last ? prefilled : Math.floor(prefilled / ps) * ps;
  w[b + F.kvSentUpTo] = Math.max(w[b + F.kvSentUpTo] as number, upTo);
  w[b + F.kvSent] = 1;
  // Pull mode: `request_finished` hands the row's block ids to decode, which reads them by id.
  const L = c.layout;
  if (last && L.mechanisms.pull) listSet(w, b, L.lists.srcPages, prefillRow(c, b));
}

/** The router posts the request to both sides. */
export function markDispatched(c: ServingContext, rid: RequestId): void {
  c.words[at(c, rid).b + F.dispatched] = 1;
}

/**
 * The router refuses a request whose client-supplied bootstrap room another request in flight
 * holds (#40185): the client gets 400, and neither side hears of the request.
 */
export function refuseRoom(c: ServingContext, rid: RequestId): void {
  const w = c.words;
  const { b } = at(c, rid);
  w[b + F.clientReplyStatus] = 400;
  w[b + F.clientReplyTokens] = 0;
  w[b + F.repliesClient] = (w[b + F.repliesClient] as number) + 1;
}

/**
 * The client aborted the request: the router answers 499 and both sides are told. Spends one
 * of the scenario's client aborts when it bounds them.
 */
export function markClientAborted(c: ServingContext, rid: RequestId): void {
  const w = c.words;
  const { b } = at(c, rid);
  w[b + F.clientAborted] = 1;
  w[b + F.clientReplyStatus] = 499;
  w[b + F.clientReplyTokens] = 0;
  w[b + F.repliesClient] = (w[b + F.repliesClient] as number) + 1;
  const left = c.layout.clientAbortsLeft;
  if (w[left] !== -1) w[left] = (w[left] as number) - 1;
}

/** A room failed on a fault: spends one of the scenario's faults when it bounds them. */
export function spendTransferFault(c: ServingContext): void {
  const left = c.layout.transferFaultsLeft;
  if (c.words[left] !== -1) c.words[left] = (c.words[left] as number) - 1;
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

/** Frees request `b`'s own pages on `node` and empties its row. */
export function freeRow(c: ServingContext, b: number, node: NodeRole): void {
  const L = c.layout;
  const slot = node === 'prefill' ? L.lists.prefillPages : L.lists.decodePages;
  freePages(c.words, L.pool(node), pagesIn(c, b, slot));
  listClear(c.words, b, slot);
}

/**
 * Frees the request's pages on `side`; slot contents stay as they are. On decode, the request's
 * metadata slot (if any) is freed too, at once. With `deferWhileWriting`, decode's pages stay
 * held (marked `releaseDeferred`) while a KV write for the still-open room is in flight;
 * `landLateWrite` frees them once it has landed.
 */
export function releasePages(
  c: ServingContext,
  rid: RequestId,
  side: Side,
  opts: ReleaseOptions = { deferWhileWriting: false },
): void {
  const r = at(c, rid);
  const w = c.words;
  if (side === 'prefill') {
    if (opts.cache) releaseIntoCache(c, r.i, opts.cache);
    else freeRow(c, r.b, 'prefill');
    clearPrefillEntry(c, r);
    return;
  }
  freeAuxSlot(c, r.b);
  // Only a write that will still land holds the pages: one in an open room, or one that a room
  // failed by abort is draining. A failed room's other writes never land.
  const defer =
    opts.deferWhileWriting &&
    c.layout.mechanisms.lateWrites &&
    (w[r.b + F.pollFailed] === 0 || w[r.b + F.draining] === 1) &&
    kvWritePending(c, rid);
  if (defer) w[r.b + F.releaseDeferred] = 1;
  else freeRow(c, r.b, 'decode');
}

/**
 * Fault B6 (#30937): the error path frees the request's prefill pages while its row (and the
 * transfer still reading them) keeps referring to them; the terminal cleanup frees them again.
 */
export function releasePrefillPagesKeepRow(c: ServingContext, rid: RequestId): void {
  const { b } = at(c, rid);
  freePages(c.words, c.layout.prefill, pagesIn(c, b, c.layout.lists.prefillPages));
}

/** Whether decode can take a metadata slot now (always, when slots are not modelled). */
export function auxSlotAvailable(c: ServingContext): boolean {
  return !c.layout.mechanisms.auxSlots || listLen(c.words, 0, c.layout.auxFree) > 0;
}

/** The index of the request whose aux data slot `slot` holds now, or -1 when it holds none. */
export function auxHolder(c: ServingContext, slot: number): number {
  const L = c.layout;
  for (let i = 0; i < L.requests.length; i++) {
    if (c.words[L.block(i) + F.auxIn] === slot) return i;
  }
  return -1;
}

/**
 * Whether the aux data in `rid`'s metadata slot was written for another room (or for none):
 * what decode's `bootstrap_room` check at commit refuses (#17430). False without aux slots.
 */
export function auxRoomMismatch(c: ServingContext, rid: RequestId): boolean {
  const r = at(c, rid);
  const slot = c.words[r.b + F.auxSlot] as number;
  return slot !== -1 && auxHolder(c, slot) !== r.i;
}

/** The aux data of the room at block `b` lands in `slot`, replacing whatever it held. */
function writeAux(c: ServingContext, b: number, slot: number): void {
  const holder = auxHolder(c, slot);
  if (holder !== -1) c.words[c.layout.block(holder) + F.auxIn] = -1;
  c.words[b + F.auxIn] = slot;
}

/**
 * Decode frees the metadata slot of the request at block `b`: it goes to the back of the free
 * queue (a FIFO, as `ReqToMetadataIdxAllocator`) and its room is reset (#27374), so it holds
 * no aux data.
 */
function freeAuxSlot(c: ServingContext, b: number): void {
  const w = c.words;
  const slot = w[b + F.auxSlot] as number;
  if (slot === -1 || !c.layout.mechanisms.auxSlots) return;
  const holder = auxHolder(c, slot);
  if (holder !== -1) w[c.layout.block(holder) + F.auxIn] = -1;
  w[b + F.auxSlot] = -1;
  listPush(w, 0, c.layout.auxFree, slot);
}

/**
 * Decode preallocates pages for `decodeLen` tokens (`_pre_alloc`); their slots are not cleared.
 * With aux slots it also takes the head of the free slot queue. The page and slot ids go to
 * prefill in the metadata (`dstPages`, `dstAux`), where a late write still finds them.
 */
export function preallocateDecode(c: ServingContext, rid: RequestId): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  const n = pagesFor(w[r.b + F.decodeLen] as number, L.pageSize);
  if (!allocatePages(w, L.decode, r.code, n, r.b, L.lists.decodePages)) return;
  if (L.mechanisms.lateWrites) listCopy(w, r.b, L.lists.decodePages, r.b, L.lists.dstPages);
  registerDestination(c, r);
  if (L.mechanisms.auxSlots && listLen(w, 0, L.auxFree) > 0) {
    const slot = listAt(w, 0, L.auxFree, 0);
    w[r.b + F.auxSlot] = slot;
    w[r.b + F.dstAux] = slot;
    listDropHead(w, 0, L.auxFree, 1);
  }
}

/**
 * Records that request `r` read `page` of `node` if it did not hold the page then: its own pages
 * and, on prefill, the cached prefix pages it has locked are held. Only the first such page is
 * kept (as `page + 1`).
 */
function noteRead(c: ServingContext, r: RequestPlace, node: NodeRole, page: number): void {
  const L = c.layout;
  const w = c.words;
  const f = r.b + (node === 'prefill' ? F.readFreedPrefill : F.readFreedDecode);
  if (w[f] !== 0 || w[L.pool(node).owner + page] === r.code) return;
  if (node === 'prefill') {
    const n = listLen(w, r.b, L.lists.prefixPages);
    for (let k = 0; k < n; k++) if (listAt(w, r.b, L.lists.prefixPages, k) === page) return;
  }
  w[f] = page + 1;
}

/**
 * The transfer worker writes the KV prefill has sent and decode has not received yet into
 * decode's destination pages: positions `[kvArrived, min(kvSentUpTo, decodeLen))`. Success means
 * prefill sent what *it* computed; the only reconciliation truncates the source when the
 * destination is shorter. The worker reads the source when it writes (`send_kvcache` reads
 * prefill's pages by the indices the chunk carries), so each decode slot takes the last writer
 * of the prefill slot it was copied from, and a source page the request no longer holds is a
 * read after free. (Prefill cannot clear its row while a write is pending: it releases only on
 * Success or Failed, and a draining room is neither; a position with no source page would land
 * as never written.)
 */
export function writeTransferredKv(c: ServingContext, rid: RequestId): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  const sent = w[r.b + F.kvSentUpTo] as number;
  // The last chunk carries the aux data, written into the slot named in the metadata.
  const dstAux = w[r.b + F.dstAux] as number;
  if (sent >= (w[r.b + F.prefillLen] as number) && dstAux !== -1) writeAux(c, r.b, dstAux);
  const from = w[r.b + F.kvArrived] as number;
  const to = Math.min(sent, w[r.b + F.decodeLen] as number);
  if (to <= from) return;
  w[r.b + F.kvArrived] = to;
  // With shared rooms the chunk goes where `transfer_infos[room]` points: possibly another
  // incarnation's destination, or none (prefill's `clear()` popped it).
  const target = destinationOf(c, r);
  if (target !== r.code) markCrossed(c, r, 4);
  if (target === 0) return;
  const into = L.placeOf(L.idOf(target) as RequestId);
  if (target !== r.code) markCrossed(c, into, 2);
  const dst = L.mechanisms.lateWrites ? L.lists.dstPages : L.lists.decodePages;
  // Push: the transfer worker reads the row the chunk's indices name; pull: decode's READ reads
  // the block ids prefill handed over, whoever holds those blocks now.
  const src = L.mechanisms.pull ? pagesIn(c, r.b, L.lists.srcPages) : prefillRow(c, r.b);
  const provenance = (pos: number): number => {
    const slot = slotOf(src, pos, L.pageSize);
    if (slot < 0) return 0;
    noteRead(c, r, 'prefill', Math.floor(slot / L.pageSize));
    return w[L.prefill.writer + slot] as number;
  };
  writePositions(w, L.decode, L.pageSize, r.code, pagesIn(c, into.b, dst), from, to, provenance);
}

/**
 * A write posted before the room failed lands now (`lateWrites`): into the destination pages
 * and aux slot decode sent, whoever holds them now. If decode deferred its release for this
 * write, the drain ends it and the pages are freed.
 */
export function landLateWrite(c: ServingContext, rid: RequestId): void {
  writeTransferredKv(c, rid);
  const { b } = at(c, rid);
  c.words[b + F.draining] = 0;
  if (c.words[b + F.releaseDeferred] === 1) {
    freeRow(c, b, 'decode');
    c.words[b + F.releaseDeferred] = 0;
  }
}

/** An abort failed the room while a write was in flight (`lateWrites`): the room drains it. */
export function startDraining(c: ServingContext, rid: RequestId): void {
  c.words[at(c, rid).b + F.draining] = 1;
}

/**
 * Whether prefill has enqueued the request's last chunk (`is_last`): the transfer worker marks
 * the room Success when that chunk's write completes, whatever the scheduler does meanwhile.
 */
export function lastChunkSent(c: ServingContext, rid: RequestId): boolean {
  const w = c.words;
  const { b } = at(c, rid);
  const len = w[b + F.prefillLen] as number;
  return len > 0 && (w[b + F.kvSentUpTo] as number) >= len;
}

/** Whether KV prefill has sent for `rid` has not all landed on decode yet. */
export function kvWritePending(c: ServingContext, rid: RequestId): boolean {
  const w = c.words;
  const { b } = at(c, rid);
  return (
    Math.min(w[b + F.kvSentUpTo] as number, w[b + F.decodeLen] as number) >
    (w[b + F.kvArrived] as number)
  );
}

/**
 * Decode commits a transferred request: `seq_len` becomes the length decode preallocated for,
 * whatever arrived, and the first output token (from prefill's aux slot) counts as generated.
 */
export function commitDecode(c: ServingContext, rid: RequestId): void {
  const w = c.words;
  const r = at(c, rid);
  const { b } = r;
  const foreign = auxRoomMismatch(c, rid);
  w[b + F.seqLen] = w[b + F.decodeLen] as number;
  w[b + F.generated] = 1;
  w[b + F.committed] = 1;
  if (c.layout.mechanisms.auxSlots) w[b + F.firstTokenForeign] = foreign ? 1 : 0;
  if (!c.layout.mechanisms.sharedRooms) return;
  // A Success its own room never reached was another incarnation's; the commit clears the entry.
  if ((w[b + F.pollPeak] as number) < kvPoll.success) markCrossed(c, r, 1);
  clearDecodeEntry(c, r);
}

/** Whether the next decode step needs a fresh page, and whether one is free. */
export function decodeStepFits(c: ServingContext, rid: RequestId): boolean {
  const w = c.words;
  const L = c.layout;
  const { b } = at(c, rid);
  const needsPage =
    Math.floor((w[b + F.seqLen] as number) / L.pageSize) >= listLen(w, b, L.lists.decodePages);
  return !needsPage || freeCount(w, L.decode) > 0;
}

/**
 * One decode forward: store the new token's KV at position `seq_len` (taking a page when the
 * row is full), then attend over positions `[0, seq_len]`.
 */
export function runDecodeStep(c: ServingContext, rid: RequestId): void {
  const L = c.layout;
  const w = c.words;
  const r = at(c, rid);
  const seq = w[r.b + F.seqLen] as number;
  if (Math.floor(seq / L.pageSize) >= listLen(w, r.b, L.lists.decodePages)) {
    if (!allocatePages(w, L.decode, r.code, 1, r.b, L.lists.decodePages)) return;
  }
  const row = pagesIn(c, r.b, L.lists.decodePages);
  writePositions(w, L.decode, L.pageSize, r.code, row, seq, seq + 1);
  recordReadsOf(c, r, 'decode', row, seq + 1);
  w[r.b + F.seqLen] = seq + 1;
  w[r.b + F.generated] = (w[r.b + F.generated] as number) + 1;
  // The batch ran a forward: a request retracted before it may resume from the next iteration.
  w[L.retractPending] = 0;
}

/** Records that the room entered KVPoll `poll` (ghost for `kvPollMonotone`). */
export function recordPoll(c: ServingContext, rid: RequestId, poll: number): void {
  const w = c.words;
  const r = at(c, rid);
  if (poll === 0) w[r.b + F.pollFailed] = 1;
  else w[r.b + F.pollPeak] = Math.max(w[r.b + F.pollPeak] as number, poll);
  concludeRoom(c, r, poll);
}
