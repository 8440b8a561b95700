/**
 * Read-only views of the state vector for the checker's hot path (properties, witnesses): a
 * request's fields under the names the decoded context uses, read straight from the words,
 * allocating nothing unless a method says it builds a list (for messages).
 *
 * Views are flyweights: `requestViews(c)` and `poolView(c, node)` return the same objects for
 * every state of a layout, rebound to `c`'s words. Read a view before asking for another
 * state's; never keep one across states.
 */
import type { KvRead, ServingContext } from './context.ts';
import { F, type Layout, type ListSlot, type PoolLayout } from './layout.ts';
import type { NodeRole, RequestId, TenantId } from './scenario.ts';
import { hasBit, listAt, listHas, listItems, listLen, setBit } from './vectorOps.ts';

/** One request's fields in the current state. */
export class RequestView {
  /**
   * The words of the state being read. Bound only by `requestViews` and `requestView`, which
   * track what the views are bound to.
   */
  w: Int32Array = new Int32Array(0);
  /** The request's id code in page owners, slot writers and reads: index + 1. */
  readonly code: number;
  readonly b: number;
  readonly tenant: TenantId;
  /** Masks over the read bitset: the reads `readOn`, `readWritten` and `readForeign` test. */
  private readonly masks: ReadMasks;

  constructor(
    readonly layout: Layout,
    /** The request's index in scenario order. */
    readonly i: number,
    readonly id: RequestId,
  ) {
    this.code = i + 1;
    this.b = layout.block(i);
    this.tenant = layout.tenants[i] as TenantId;
    this.masks = readMasks(layout, this.tenant);
  }

  private f(field: number): number {
    return this.w[this.b + field] as number;
  }

  get prefillLen(): number {
    return this.f(F.prefillLen);
  }
  get prefilled(): number {
    return this.f(F.prefilled);
  }
  get kvSentUpTo(): number {
    return this.f(F.kvSentUpTo);
  }
  get decodeLen(): number {
    return this.f(F.decodeLen);
  }
  get kvArrived(): number {
    return this.f(F.kvArrived);
  }
  get seqLen(): number {
    return this.f(F.seqLen);
  }
  get generated(): number {
    return this.f(F.generated);
  }
  /** Status of prefill's reply, 0 before it. */
  get prefillStatus(): number {
    return this.f(F.prefillReplyStatus);
  }
  /** Status of decode's reply, 0 before it. */
  get decodeStatus(): number {
    return this.f(F.decodeReplyStatus);
  }
  /** Status of the router's reply to the client, 0 before it. */
  get clientStatus(): number {
    return this.f(F.clientReplyStatus);
  }
  /** Tokens in the router's reply to the client. */
  get clientTokens(): number {
    return this.f(F.clientReplyTokens);
  }
  get repliesPrefill(): number {
    return this.f(F.repliesPrefill);
  }
  get repliesDecode(): number {
    return this.f(F.repliesDecode);
  }
  get repliesClient(): number {
    return this.f(F.repliesClient);
  }
  get rejectedOnPrefill(): boolean {
    return this.f(F.rejectedOnPrefill) === 1;
  }
  get rejectedOnDecode(): boolean {
    return this.f(F.rejectedOnDecode) === 1;
  }
  /** Why prefill aborted the request after intake (an `abortCause` code), 0 if it did not. */
  get prefillAbort(): number {
    return this.f(F.prefillAbort);
  }
  /** Why decode aborted the request after intake (an `abortCause` code), 0 if it did not. */
  get decodeAbort(): number {
    return this.f(F.decodeAbort);
  }
  /** The first page of `node` this request's KV was read from while it did not hold it, or -1. */
  readFreed(node: NodeRole): number {
    return this.f(node === 'prefill' ? F.readFreedPrefill : F.readFreedDecode) - 1;
  }
  /** Aborted after intake: by either side, or by the client. */
  get aborted(): boolean {
    return this.f(F.prefillAbort) !== 0 || this.f(F.decodeAbort) !== 0 || this.clientAborted;
  }
  get clientAborted(): boolean {
    return this.f(F.clientAborted) === 1;
  }
  get kvSent(): boolean {
    return this.f(F.kvSent) === 1;
  }
  get committed(): boolean {
    return this.f(F.committed) === 1;
  }
  get pollPeak(): number {
    return this.f(F.pollPeak);
  }
  get pollFailed(): boolean {
    return this.f(F.pollFailed) === 1;
  }
  /** With `lateWrites`: the room drains a write that will still land. */
  get draining(): boolean {
    return this.f(F.draining) === 1;
  }
  get releaseDeferred(): boolean {
    return this.f(F.releaseDeferred) === 1;
  }
  /** With aux slots: the metadata slot decode holds, -1 for none. */
  get auxSlot(): number {
    return this.f(F.auxSlot);
  }
  /** With aux slots: the slot sent in the metadata, -1 for none. */
  get dstAux(): number {
    return this.f(F.dstAux);
  }
  /** With shared rooms: how the request crossed another incarnation of its room (`layout.ts`). */
  get roomCrossed(): number {
    return this.f(F.roomCrossed);
  }
  /** Decode retracted the request and has not resumed it: its KV is on the host. */
  get retracted(): boolean {
    return listLen(this.w, this.b, this.layout.lists.hostKv) > 0;
  }
  /** With aux slots: the slot holding this room's aux data, -1 for none. */
  get auxIn(): number {
    return this.f(F.auxIn);
  }
  get firstTokenForeign(): boolean {
    return this.f(F.firstTokenForeign) === 1;
  }
  /** With the prefix cache: the lock count of the node this request inserted, -1 for none. */
  get cachedLockRef(): number {
    return this.f(F.cachedLockRef);
  }

  /** The number of pages in the request's row on `node`. */
  pageCount(node: NodeRole): number {
    return listLen(this.w, this.b, this.row(node));
  }

  /** Page `k` of the request's row on `node`. */
  pageAt(node: NodeRole, k: number): number {
    return listAt(this.w, this.b, this.row(node), k);
  }

  /** Whether the request's row on `node` holds `page`. */
  holds(node: NodeRole, page: number): boolean {
    return listHas(this.w, this.b, this.row(node), page);
  }

  /** The request's row on `node`, as a new array (for messages). */
  pages(node: NodeRole): number[] {
    return listItems(this.w, this.b, this.row(node));
  }

  /** A list of the request block (`layout.lists`), as a new array (for messages). */
  list(slot: ListSlot): number[] {
    return listItems(this.w, this.b, slot);
  }

  /** The number of items in a list of the request block. */
  listLen(slot: ListSlot): number {
    return listLen(this.w, this.b, slot);
  }

  /** Item `k` of a list of the request block. */
  listAt(slot: ListSlot, k: number): number {
    return listAt(this.w, this.b, slot, k);
  }

  private row(node: NodeRole): ListSlot {
    return node === 'prefill' ? this.layout.lists.prefillPages : this.layout.lists.decodePages;
  }

  /** Whether the request read `page` on `node` while `writer` (a code, 0: nobody) had written it. */
  hasRead(node: NodeRole, page: number, writer: number): boolean {
    return hasBit(
      this.w,
      this.b + this.layout.lists.reads,
      this.layout.readBit(node, page, writer),
    );
  }

  /** Whether the request read any slot of `node`'s pool, written or not (a forward ran there). */
  readOn(node: NodeRole): boolean {
    return this.readsUnder(node === 'prefill' ? this.masks.prefill : this.masks.decode);
  }

  /** Whether the request read a slot that some request had written, on either node. */
  readWritten(): boolean {
    return this.readsUnder(this.masks.written);
  }

  /** Whether the request read a slot last written by a request of another tenant. */
  readForeign(): boolean {
    return this.readsUnder(this.masks.foreign);
  }

  /** Whether a read bit under `mask` is set: one test per word of the bitset. */
  private readsUnder(mask: Int32Array): boolean {
    const w = this.w;
    const at = this.b + this.layout.lists.reads;
    for (let j = 0; j < mask.length; j++) {
      if (((w[at + j] as number) & (mask[j] as number)) !== 0) return true;
    }
    return false;
  }

  /**
   * Calls `visit` for each read, in the decoded read set's node and page order; stops and
   * returns true as soon as `visit` does.
   */
  someRead(visit: (node: NodeRole, page: number, writer: number) => boolean): boolean {
    const L = this.layout;
    for (const node of nodes) {
      const pages = L.pool(node).pages;
      for (let page = 0; page < pages; page++) {
        for (const code of L.writerOrder) {
          if (this.hasRead(node, page, code) && visit(node, page, code)) return true;
        }
      }
    }
    return false;
  }

  /** The read as the decoded context writes it (for messages). */
  readOf(node: NodeRole, page: number, writer: number): KvRead {
    return { node, page, writer: this.layout.idOf(writer) };
  }
}

const nodes = ['decode', 'prefill'] as const;

/** Masks over a request's read bitset, one bit per (node, page, writer code) read. */
interface ReadMasks {
  /** Every read on prefill's pages. */
  readonly prefill: Int32Array;
  /** Every read on decode's pages. */
  readonly decode: Int32Array;
  /** Reads of a slot some request wrote (writer code not 0). */
  readonly written: Int32Array;
  /** Reads of a slot a request of a tenant other than `tenant` wrote. */
  readonly foreign: Int32Array;
}

/** The read masks of a request of `tenant` under `layout`. */
function readMasks(layout: Layout, tenant: TenantId): ReadMasks {
  const bits = (layout.prefill.pages + layout.decode.pages) * layout.writerCodes;
  const size = Math.ceil(bits / 32);
  const m = {
    prefill: new Int32Array(size),
    decode: new Int32Array(size),
    written: new Int32Array(size),
    foreign: new Int32Array(size),
  };
  for (const node of nodes) {
    for (let page = 0; page < layout.pool(node).pages; page++) {
      for (let code = 0; code < layout.writerCodes; code++) {
        const bit = layout.readBit(node, page, code);
        setBit(m[node], 0, bit);
        if (code === 0) continue;
        setBit(m.written, 0, bit);
        if (layout.tenants[code - 1] !== tenant) setBit(m.foreign, 0, bit);
      }
    }
  }
  return m;
}

/** One node's pool in the current state. */
export class PoolView {
  w: Int32Array = new Int32Array(0);

  constructor(
    readonly layout: Layout,
    readonly node: NodeRole,
    readonly pool: PoolLayout,
  ) {}

  /** Pages in the pool. */
  get capacity(): number {
    return this.pool.pages;
  }
  /** Entries on the free list (a duplicate counts twice). */
  get freeCount(): number {
    return listLen(this.w, 0, this.pool.free);
  }
  /** Entry `k` of the free list, head first. */
  freeAt(k: number): number {
    return listAt(this.w, 0, this.pool.free, k);
  }
  /** Whether `page` is on the free list. */
  isFree(page: number): boolean {
    return listHas(this.w, 0, this.pool.free, page);
  }
  /** The code of the request holding `page` (0: none). */
  owner(page: number): number {
    return this.w[this.pool.owner + page] as number;
  }
  /** The code of the last writer of `slot` (0: never written). */
  writer(slot: number): number {
    return this.w[this.pool.writer + slot] as number;
  }
  /** Stray writes recorded. */
  get strayCount(): number {
    return listLen(this.w, 0, this.pool.stray);
  }
  /** Stray write `k`'s page. */
  strayPage(k: number): number {
    return this.w[this.pool.stray.at + 1 + 2 * k] as number;
  }
  /** Stray write `k`'s writer code. */
  strayBy(k: number): number {
    return this.w[this.pool.stray.at + 2 + 2 * k] as number;
  }
}

interface Views {
  readonly requests: RequestView[];
  readonly prefill: PoolView;
  readonly decode: PoolView;
  /** The words every request view is bound to, or null when they may differ. */
  requestsBound: Int32Array | null;
}

const viewsByLayout = new WeakMap<Layout, Views>();
/** The layout `viewsOf` was last asked for and its views: one run reads one layout. */
let lastLayout: Layout | null = null;
let lastViews: Views | null = null;

/** Builds the views of `layout` (kept out of `viewsOf`, whose hot path then closes over nothing). */
function buildViews(layout: Layout): Views {
  const v: Views = {
    requests: layout.requests.map((id, i) => new RequestView(layout, i, id)),
    prefill: new PoolView(layout, 'prefill', layout.prefill),
    decode: new PoolView(layout, 'decode', layout.decode),
    requestsBound: null,
  };
  viewsByLayout.set(layout, v);
  return v;
}

/** The views of `layout`, built on first use; the last layout's without a map lookup. */
function viewsOf(layout: Layout): Views {
  if (layout === lastLayout) return lastViews as Views;
  const views = viewsByLayout.get(layout) ?? buildViews(layout);
  lastLayout = layout;
  lastViews = views;
  return views;
}

/** The requests of `c` in scenario order, as views bound to `c`'s words (see the module note). */
export function requestViews(c: ServingContext): readonly RequestView[] {
  const all = viewsOf(c.layout);
  const views = all.requests;
  const w = c.words;
  if (all.requestsBound === w) return views;
  for (let i = 0; i < views.length; i++) (views[i] as RequestView).w = w;
  all.requestsBound = w;
  return views;
}

/** Request `rid` of `c` as a view bound to `c`'s words. */
export function requestView(c: ServingContext, rid: RequestId): RequestView {
  const all = viewsOf(c.layout);
  const v = all.requests[c.layout.indexOf(rid)] as RequestView;
  if (v.w !== c.words) {
    v.w = c.words;
    all.requestsBound = null;
  }
  return v;
}

/** The pool of `node` in `c`, as a view bound to `c`'s words. */
export function poolView(c: ServingContext, node: NodeRole): PoolView {
  const v = viewsOf(c.layout)[node];
  if (v.w !== c.words) v.w = c.words;
  return v;
}
