/**
 * The state vector decoded into plain JSON, and back: `decodeContext` is what traces, reports,
 * ITF and the simulator render (the same keys, in the same order, as the context had before it
 * became a vector), and `encodeContext` builds a vector from such a record, for tests and
 * tools that describe a state by its fields. Both are cold paths; the checker's hot path reads
 * the vector through `servingView.ts`.
 */
import {
  abortCause,
  abortCauseNames,
  type DecodedContext,
  type KvRead,
  type Reply,
  type RequestState,
  type ServingContext,
  type SharedRoom,
} from './context.ts';
import type { PagePool, StrayWrite } from './kvPagePool.ts';
import { F, type Layout, type ListSlot, type PoolLayout } from './layout.ts';
import type { RequestId } from './scenario.ts';
import { hasBit, listItems, listSet, setBit } from './vectorOps.ts';

/** The read set's order: by node, then page, then writer (nobody first). */
export function compareReads(a: KvRead, b: KvRead): number {
  if (a.node !== b.node) return a.node < b.node ? -1 : 1;
  if (a.page !== b.page) return a.page - b.page;
  const wa = a.writer ?? '';
  const wb = b.writer ?? '';
  return wa < wb ? -1 : wa > wb ? 1 : 0;
}

/** A `page + 1` word (0: none) as the page, or null. */
function pageOrNull(word: number): number | null {
  return word === 0 ? null : word - 1;
}

function codeOf(layout: Layout, rid: RequestId | null): number {
  return rid === null ? 0 : layout.indexOf(rid) + 1;
}

function replyAt(w: Int32Array, b: number, status: number): Reply | null {
  const s = w[b + status] as number;
  return s === 0 ? null : { status: s, tokens: w[b + status + 1] as number };
}

function nullable(x: number): number | null {
  return x === -1 ? null : x;
}

function readsOf(layout: Layout, w: Int32Array, b: number): KvRead[] {
  const out: KvRead[] = [];
  for (const node of ['prefill', 'decode'] as const) {
    for (let page = 0; page < layout.pool(node).pages; page++) {
      for (let code = 0; code < layout.writerCodes; code++) {
        if (hasBit(w, b + layout.lists.reads, layout.readBit(node, page, code))) {
          out.push({ node, page, writer: layout.idOf(code) });
        }
      }
    }
  }
  return out.sort(compareReads);
}

function decodeRequest(layout: Layout, w: Int32Array, i: number): RequestState {
  const b = layout.block(i);
  const L = layout.lists;
  const m = layout.mechanisms;
  const flag = (f: number) => w[b + f] === 1;
  const items = (slot: ListSlot) => listItems(w, b, slot);
  return {
    prefillLen: w[b + F.prefillLen] as number,
    prefillPages: items(L.prefillPages),
    prefilled: w[b + F.prefilled] as number,
    kvSentUpTo: w[b + F.kvSentUpTo] as number,
    decodeLen: w[b + F.decodeLen] as number,
    decodePages: items(L.decodePages),
    kvArrived: w[b + F.kvArrived] as number,
    seqLen: w[b + F.seqLen] as number,
    generated: w[b + F.generated] as number,
    prefillReply: replyAt(w, b, F.prefillReplyStatus),
    decodeReply: replyAt(w, b, F.decodeReplyStatus),
    clientReply: replyAt(w, b, F.clientReplyStatus),
    replyCount: {
      prefill: w[b + F.repliesPrefill] as number,
      decode: w[b + F.repliesDecode] as number,
      client: w[b + F.repliesClient] as number,
    },
    rejectedOnPrefill: flag(F.rejectedOnPrefill),
    rejectedOnDecode: flag(F.rejectedOnDecode),
    prefillAbort: abortCauseNames[w[b + F.prefillAbort] as number] ?? null,
    decodeAbort: abortCauseNames[w[b + F.decodeAbort] as number] ?? null,
    clientAborted: flag(F.clientAborted),
    dispatched: flag(F.dispatched),
    kvSent: flag(F.kvSent),
    committed: flag(F.committed),
    readAfterFree: {
      prefill: pageOrNull(w[b + F.readFreedPrefill] as number),
      decode: pageOrNull(w[b + F.readFreedDecode] as number),
    },
    reads: readsOf(layout, w, b),
    pollPeak: w[b + F.pollPeak] as number,
    pollFailed: flag(F.pollFailed),
    ...(m.lateWrites
      ? {
          dstPages: items(L.dstPages),
          releaseDeferred: flag(F.releaseDeferred),
          draining: flag(F.draining),
        }
      : {}),
    ...(m.auxSlots
      ? {
          auxSlot: nullable(w[b + F.auxSlot] as number),
          dstAux: nullable(w[b + F.dstAux] as number),
          auxIn: nullable(w[b + F.auxIn] as number),
          firstTokenForeign: flag(F.firstTokenForeign),
        }
      : {}),
    ...(m.prefixCache
      ? {
          cachedPrefix:
            w[b + F.cachedLockRef] === -1
              ? null
              : { pages: items(L.cachedPages), lockRef: w[b + F.cachedLockRef] as number },
          prefixPages: items(L.prefixPages),
        }
      : {}),
    ...(m.retraction ? { hostKv: items(L.hostKv).map((code) => layout.idOf(code)) } : {}),
    ...(m.sharedRooms ? { roomCrossed: w[b + F.roomCrossed] as number } : {}),
    ...(m.pull ? { srcPages: items(L.srcPages) } : {}),
  };
}

/**
 * The pool at `pool` in `w`, decoded: its free list, owners and writers by name (`name` turns a
 * request code into its id; 0 is nobody), and its stray writes in order.
 */
export function decodePool(
  w: Int32Array,
  pool: PoolLayout,
  pageSize: number,
  name: (code: number) => RequestId | null,
): PagePool {
  const strayWrites: StrayWrite[] = [];
  const n = w[pool.stray.at] as number;
  for (let k = 0; k < n; k++) {
    const at = pool.stray.at + 1 + 2 * k;
    strayWrites.push({ page: w[at] as number, by: name(w[at + 1] as number) ?? '?' });
  }
  return {
    pageSize,
    free: listItems(w, 0, pool.free),
    owner: Array.from({ length: pool.pages }, (_, p) => name(w[pool.owner + p] as number)),
    writer: Array.from({ length: pool.pages * pageSize }, (_, s) =>
      name(w[pool.writer + s] as number),
    ),
    strayWrites,
  };
}

/** The context as plain JSON, in the key order of `DecodedContext`. */
export function decodeContext(c: ServingContext): DecodedContext {
  const { layout, words: w } = c;
  const m = layout.mechanisms;
  const requests: Record<RequestId, RequestState> = {};
  const tenants: Record<RequestId, string> = {};
  layout.requests.forEach((rid, i) => {
    tenants[rid] = layout.tenants[i] as string;
    requests[rid] = decodeRequest(layout, w, i);
  });
  return {
    tenants,
    ...(m.prefixCache
      ? {
          prefixGroups: Object.fromEntries(
            layout.requests.map((rid, i) => [rid, layout.prefixGroups[i] ?? null]),
          ),
        }
      : {}),
    prefillPool: decodePool(w, layout.prefill, layout.pageSize, (code) => layout.idOf(code)),
    decodePool: decodePool(w, layout.decode, layout.pageSize, (code) => layout.idOf(code)),
    requests,
    ...(m.auxSlots ? { auxFree: listItems(w, 0, layout.auxFree) } : {}),
    ...(m.transferFaultBudget
      ? { transferFaultsLeft: w[layout.transferFaultsLeft] as number }
      : {}),
    ...(m.clientAbortBudget ? { clientAbortsLeft: w[layout.clientAbortsLeft] as number } : {}),
    ...(m.retraction ? { retractPending: w[layout.retractPending] === 1 } : {}),
    ...(m.sharedRooms ? { rooms: decodeRooms(layout, w) } : {}),
  };
}

const roomEntries = ['none', 'success', 'failed'] as const;

/** The shared rooms' words, by room index. */
function decodeRooms(layout: Layout, w: Int32Array): SharedRoom[] {
  const count = layout.roomConcluded - layout.roomDst;
  return Array.from({ length: count }, (_, k) => ({
    destination: layout.idOf(w[layout.roomDst + k] as number),
    decodeEntry: roomEntries[w[layout.roomConcluded + k] as number] ?? 'none',
  }));
}

function setReply(w: Int32Array, b: number, status: number, reply: Reply | null): void {
  w[b + status] = reply?.status ?? 0;
  w[b + status + 1] = reply?.tokens ?? 0;
}

function encodeRequest(layout: Layout, w: Int32Array, i: number, r: RequestState): void {
  const b = layout.block(i);
  const L = layout.lists;
  const bit = (x: boolean) => (x ? 1 : 0);
  w[b + F.prefillLen] = r.prefillLen;
  w[b + F.prefilled] = r.prefilled;
  w[b + F.kvSentUpTo] = r.kvSentUpTo;
  w[b + F.decodeLen] = r.decodeLen;
  w[b + F.kvArrived] = r.kvArrived;
  w[b + F.seqLen] = r.seqLen;
  w[b + F.generated] = r.generated;
  setReply(w, b, F.prefillReplyStatus, r.prefillReply);
  setReply(w, b, F.decodeReplyStatus, r.decodeReply);
  setReply(w, b, F.clientReplyStatus, r.clientReply);
  w[b + F.repliesPrefill] = r.replyCount.prefill;
  w[b + F.repliesDecode] = r.replyCount.decode;
  w[b + F.repliesClient] = r.replyCount.client;
  w[b + F.rejectedOnPrefill] = bit(r.rejectedOnPrefill);
  w[b + F.rejectedOnDecode] = bit(r.rejectedOnDecode);
  w[b + F.prefillAbort] = r.prefillAbort === null ? 0 : abortCause[r.prefillAbort];
  w[b + F.decodeAbort] = r.decodeAbort === null ? 0 : abortCause[r.decodeAbort];
  w[b + F.clientAborted] = bit(r.clientAborted);
  w[b + F.dispatched] = bit(r.dispatched);
  w[b + F.kvSent] = bit(r.kvSent);
  w[b + F.readFreedPrefill] = (r.readAfterFree.prefill ?? -1) + 1;
  w[b + F.readFreedDecode] = (r.readAfterFree.decode ?? -1) + 1;
  w[b + F.committed] = bit(r.committed);
  w[b + F.pollPeak] = r.pollPeak;
  w[b + F.pollFailed] = bit(r.pollFailed);
  w[b + F.releaseDeferred] = bit(r.releaseDeferred === true);
  w[b + F.draining] = bit(r.draining === true);
  w[b + F.auxSlot] = r.auxSlot ?? -1;
  w[b + F.dstAux] = r.dstAux ?? -1;
  w[b + F.auxIn] = r.auxIn ?? -1;
  w[b + F.firstTokenForeign] = bit(r.firstTokenForeign === true);
  w[b + F.cachedLockRef] = r.cachedPrefix?.lockRef ?? -1;
  w[b + F.roomCrossed] = r.roomCrossed ?? 0;
  listSet(w, b, L.srcPages, r.srcPages ?? []);
  listSet(w, b, L.prefillPages, r.prefillPages);
  listSet(w, b, L.decodePages, r.decodePages);
  listSet(w, b, L.dstPages, r.dstPages ?? []);
  listSet(w, b, L.prefixPages, r.prefixPages ?? []);
  listSet(w, b, L.cachedPages, r.cachedPrefix?.pages ?? []);
  listSet(
    w,
    b,
    L.hostKv,
    (r.hostKv ?? []).map((rid) => codeOf(layout, rid)),
  );
  for (const read of r.reads) {
    setBit(w, b + L.reads, layout.readBit(read.node, read.page, codeOf(layout, read.writer)));
  }
}

function encodePool(layout: Layout, w: Int32Array, pool: PoolLayout, p: PagePool): void {
  listSet(w, 0, pool.free, p.free);
  p.owner.forEach((o, page) => {
    w[pool.owner + page] = codeOf(layout, o);
  });
  p.writer.forEach((o, slot) => {
    w[pool.writer + slot] = codeOf(layout, o);
  });
  w[pool.stray.at] = p.strayWrites.length;
  p.strayWrites.forEach((s, k) => {
    w[pool.stray.at + 1 + 2 * k] = s.page;
    w[pool.stray.at + 2 + 2 * k] = codeOf(layout, s.by);
  });
}

/**
 * The vector that decodes to `d` under `layout` (whose scenario `d` must describe). Fields
 * the layout does not decode (a mechanism that is off) are written as their initial values.
 */
export function encodeContext(layout: Layout, d: DecodedContext): ServingContext {
  const w = new Int32Array(layout.words);
  layout.requests.forEach((rid, i) => {
    const r = d.requests[rid];
    if (!r) throw new Error(`the context has no request ${rid}`);
    encodeRequest(layout, w, i, r);
  });
  encodePool(layout, w, layout.prefill, d.prefillPool);
  encodePool(layout, w, layout.decode, d.decodePool);
  listSet(w, 0, layout.auxFree, d.auxFree ?? []);
  w[layout.transferFaultsLeft] = d.transferFaultsLeft ?? -1;
  w[layout.clientAbortsLeft] = d.clientAbortsLeft ?? -1;
  w[layout.retractPending] = d.retractPending === true ? 1 : 0;
  (d.rooms ?? []).forEach((room, k) => {
    w[layout.roomDst + k] = codeOf(layout, room.destination);
    w[layout.roomConcluded + k] = roomEntries.indexOf(room.decodeEntry);
  });
  return { layout, words: w };
}
