/**
 * The serving model's state vector: where every variable of the composed system's context
 * lives in one `Int32Array`, derived from a scenario's bounds. The layout is fixed for a run:
 * every list has a capacity and a length word, unused words are zero, so two states that mean
 * the same thing have the same words (and the same fingerprint).
 *
 * Ids are small integers: request `i` (scenario order) is written as `i + 1` wherever a
 * request is named (page owners, slot writers, stray writes, attention reads), and 0 means
 * nobody. `null` in a nullable integer field is -1. The name tables (`requests`, `tenants`)
 * turn them back into names for rendering (`contextCodec.ts`).
 *
 * Variables, in the way a TLA+ spec comments its variables:
 *
 * Per request (one block of `blockWords` words each, request `i` at `i * blockWords`):
 * - `prefillLen`: tokens prefill computes: the prompt, or 1 for the placeholder (0 before intake);
 * - `prefilled`: tokens prefill has computed so far, chunk by chunk;
 * - `kvSentUpTo`: positions whose KV prefill has sent (enqueued) to decode;
 * - `decodeLen`: tokens decode preallocated for: the prompt, or 1 for a placeholder;
 * - `kvArrived`: positions the transfer wrote into decode's pages for this room;
 * - `seqLen`: decode's sequence length, positions with KV in the row;
 * - `generated`: output tokens so far (the first comes from prefill's aux slot);
 * - `prefillReply`, `decodeReply`, `clientReply`: a status (0: no reply yet) and a token count;
 * - `repliesPrefill`, `repliesDecode`, `repliesClient` (ghost): terminal replies emitted;
 * - `rejectedOnPrefill`, `rejectedOnDecode` (ghost, 0/1): rejected at intake on that side;
 * - `prefillAbort`, `decodeAbort` (ghost, an `abortCause` code, 0: none): why that side aborted
 *   the request after intake (a transfer failure, a timeout, a prefill error, a refused commit);
 * - `clientAborted` (0/1): the client aborted; a side that defers an abort reads it next step;
 * - `kvSent` (ghost, 0/1): a KV chunk or aux data was sent for the room;
 * - `committed` (ghost, 0/1): decode committed the request (it joined the running batch);
 * - `pollPeak` (ghost): the highest non-Failed KVPoll the room reached, -1 before it opened;
 * - `pollFailed` (ghost, 0/1): the room has been Failed;
 * - `releaseDeferred`, `draining` (0/1, with `lateWrites`): decode keeps its pages until the
 *   room's in-flight write has drained; the room drains a write that will still land;
 * - `auxSlot`, `dstAux`, `auxIn` (-1: none, with `auxSlots`): the metadata slot decode holds,
 *   the slot sent in the metadata, the slot that now holds this room's aux data;
 * - `firstTokenForeign` (ghost, 0/1, with `auxSlots`): the first token came from another room;
 * - `cachedLockRef` (-1: no node, with the prefix cache): the lock count of the cache node this
 *   request inserted;
 * - `dispatched` (0/1): the router posted the request to both sides (it did not refuse it);
 * - `roomCrossed` (ghost, bits, with shared rooms): 1: the request acted on a KVPoll status another
 *   incarnation of its room set; 2: KV another incarnation sent landed in its pages; 4: its own
 *   KV was sent into another incarnation's pages, or to no destination;
 * - `readFreedPrefill`, `readFreedDecode` (ghost, page + 1, 0: none): the first page of that
 *   node this request's KV was read from (by the transfer, or by attention) while the request
 *   did not hold it;
 * - lists (a length word, then `cap` words): `prefillPages` and `decodePages` (the rows, in
 *   order), `dstPages` (with `lateWrites`: the pages sent in the metadata), `prefixPages` (the
 *   locked cached pages the prefill row starts with), `cachedPages` (the pages of the node this
 *   request inserted);
 * - `hostKv` (with `retraction`): the host copy of a retracted request's KV, one entry per
 *   position `[0, seqLen)` holding the writer code of that slot when it was offloaded (empty
 *   while the request is not retracted: a retracted request always holds at least one position);
 * - `srcPages` (with `pull`): the prefill pages whose ids went to decode in
 *   `kv_transfer_params` when prefill finished the request; decode's READ reads them by id;
 * - `reads` (ghost): attention reads as a bitset over (node, page, writer-or-nobody), bit
 *   `nodeBase + page * (requests + 1) + writer` with prefill's pages first.
 *
 * Per node (prefill, then decode):
 * - `free`: the free list, head first (a list; a double free shows as a duplicate);
 * - `owner`: per page, the request holding it (0: free);
 * - `writer`: per slot (`page * pageSize + offset`), the last request that wrote it (0: never);
 * - `stray`: writes into a page the writer did not hold, as (page, writer) pairs, in order.
 *
 * Global:
 * - `auxFree` (with `auxSlots`): decode's free metadata slots, head first;
 * - `transferFaultsLeft`, `clientAbortsLeft` (-1 when unbounded or off): fault budgets left;
 * - `retractPending` (0/1, with `retraction`): decode retracted a request and its batch has not
 *   run a decode step since, so the retracted request cannot resume yet;
 * - per room, with shared rooms (`roomOf` maps requests to rooms): `roomDst`, the code of the
 *   request whose destination prefill's `transfer_infos[room]` holds (0: none), and
 *   `roomConcluded`, decode's status entry for the room: 0 none (never set, or cleared), 1
 *   Success, 2 Failed.
 */
import {
  type NodeRole,
  pagesFor,
  poolPages,
  prefixCacheOn,
  type RequestId,
  roomIndices,
  roomsCollide,
  type Scenario,
  type TenantId,
} from './scenario.ts';

/** Offsets of the fixed (scalar) fields inside a request block. */
export const F = {
  prefillLen: 0,
  prefilled: 1,
  kvSentUpTo: 2,
  decodeLen: 3,
  kvArrived: 4,
  seqLen: 5,
  generated: 6,
  prefillReplyStatus: 7,
  prefillReplyTokens: 8,
  decodeReplyStatus: 9,
  decodeReplyTokens: 10,
  clientReplyStatus: 11,
  clientReplyTokens: 12,
  repliesPrefill: 13,
  repliesDecode: 14,
  repliesClient: 15,
  rejectedOnPrefill: 16,
  rejectedOnDecode: 17,
  prefillAbort: 18,
  decodeAbort: 19,
  clientAborted: 20,
  kvSent: 21,
  committed: 22,
  pollPeak: 23,
  pollFailed: 24,
  releaseDeferred: 25,
  draining: 26,
  auxSlot: 27,
  dstAux: 28,
  auxIn: 29,
  firstTokenForeign: 30,
  cachedLockRef: 31,
  readFreedPrefill: 32,
  readFreedDecode: 33,
  roomCrossed: 34,
  dispatched: 35,
} as const;

/** A scalar field of a request block. */
export type Field = (typeof F)[keyof typeof F];

const scalarWords = 36;

/** A list of a request block (`Layout.lists`, the read bitset `reads` included). */
export type RequestList = keyof RequestLists;

/** A variable of a request block: a scalar field (`F`) or a list. */
export type RequestVariable = keyof typeof F | RequestList;

/** A variable of each pool. */
export type PoolVariable = 'free' | 'owner' | 'writer' | 'stray';

/** A global variable. */
export type GlobalVariable =
  | 'auxFree'
  | 'transferFaultsLeft'
  | 'clientAbortsLeft'
  | 'retractPending'
  | 'roomDst'
  | 'roomConcluded';

/** The variable a word belongs to (`Layout.variableOf`). */
export type Variable =
  | { readonly scope: 'request'; readonly request: number; readonly name: string }
  | { readonly scope: NodeRole; readonly name: PoolVariable }
  | { readonly scope: 'global'; readonly name: GlobalVariable };

/**
 * Variables by name, as a reader declares them (`Layout.wordsOf`): request variables of every
 * request, pool variables of both pools, globals.
 */
export interface VariableReads {
  readonly request?: readonly RequestVariable[];
  readonly pool?: readonly PoolVariable[];
  readonly global?: readonly GlobalVariable[];
}

/** A request's place in the vector: its index, its id code (`index + 1`), its block's first word. */
export interface RequestPlace {
  readonly i: number;
  readonly code: number;
  readonly b: number;
}

/** A bounded list: its length word at `at`, its items in the `cap` words after it. */
export interface ListSlot {
  readonly at: number;
  readonly cap: number;
}

/** One node's pool in the vector (offsets are absolute). */
export interface PoolLayout {
  readonly pages: number;
  readonly free: ListSlot;
  /** First word of `owner` (one per page). */
  readonly owner: number;
  /** First word of `writer` (one per slot). */
  readonly writer: number;
  /** Stray writes: `cap` counts pairs, so the list takes `2 * cap` words after its length. */
  readonly stray: ListSlot;
}

/** Offsets of a request block's lists, relative to the block. */
export interface RequestLists {
  readonly prefillPages: ListSlot;
  readonly decodePages: ListSlot;
  readonly dstPages: ListSlot;
  readonly prefixPages: ListSlot;
  readonly cachedPages: ListSlot;
  /** With `retraction`: the host copy of a retracted request's slot writers, by position. */
  readonly hostKv: ListSlot;
  /** With `pull`: the prefill pages whose ids prefill handed to decode when it finished. */
  readonly srcPages: ListSlot;
  /** First word of the read bitset, relative to the block. */
  readonly reads: number;
}

/** Which optional mechanisms' fields are part of the decoded context. */
export interface Mechanisms {
  readonly lateWrites: boolean;
  readonly auxSlots: boolean;
  readonly prefixCache: boolean;
  readonly transferFaultBudget: boolean;
  readonly clientAbortBudget: boolean;
  /** Decode may retract running requests (two or more requests): `hostKv` is sized. */
  readonly retraction: boolean;
  /** Two requests name the same bootstrap room: the per-room words are kept. */
  readonly sharedRooms: boolean;
  /** Pull-mode transfer: `srcPages` is sized. */
  readonly pull: boolean;
}

/** A scenario's state-vector layout and the name tables that render it. */
export class Layout {
  /** Request ids in scenario order: request index `i` is written `i + 1`. */
  readonly requests: readonly RequestId[];
  /** Each request's tenant, by index. */
  readonly tenants: readonly TenantId[];
  /** Each request's prefix group (null: none), by index; empty without the prefix cache. */
  readonly prefixGroups: readonly (string | null)[];
  readonly pageSize: number;
  readonly mechanisms: Mechanisms;
  /** Words per request block. */
  readonly blockWords: number;
  readonly lists: RequestLists;
  /** Bits per (node, page) in the read bitset: requests + 1 (nobody). */
  readonly writerCodes: number;
  /** Writer codes in the decoded read set's order: nobody (0), then by request id. */
  readonly writerOrder: readonly number[];
  readonly prefill: PoolLayout;
  readonly decode: PoolLayout;
  readonly auxFree: ListSlot;
  readonly transferFaultsLeft: number;
  readonly clientAbortsLeft: number;
  /** The word of `retractPending`. */
  readonly retractPending: number;
  /** Each request's room index, by request index (see `roomIndices`). */
  readonly roomOf: readonly number[];
  /** First word of `roomDst` (one per room; no words without shared rooms). */
  readonly roomDst: number;
  /** First word of `roomConcluded` (one per room; no words without shared rooms). */
  readonly roomConcluded: number;
  /** Total words. */
  readonly words: number;
  private readonly places: ReadonlyMap<RequestId, RequestPlace>;

  constructor(scenario: Scenario) {
    const n = scenario.requests.length;
    this.requests = scenario.requests.map((r) => r.id);
    this.tenants = scenario.requests.map((r) => r.tenant);

    const cache = prefixCacheOn(scenario);
    this.prefixGroups = cache ? scenario.requests.map((r) => r.prefix?.group ?? null) : [];
    this.pageSize = scenario.pageSize;
    this.mechanisms = {
      // A pull-mode READ, once posted, lands whatever happens to the request meanwhile.
      lateWrites: scenario.lateWrites === true || scenario.transfer === 'pull',
      auxSlots: scenario.auxSlots !== undefined,
      prefixCache: cache,
      transferFaultBudget: scenario.transferFaults && scenario.maxTransferFaults !== undefined,
      clientAbortBudget: scenario.clientAborts && scenario.maxClientAborts !== undefined,
      retraction: n >= 2,
      sharedRooms: roomsCollide(scenario),
      pull: scenario.transfer === 'pull',
    };
    this.roomOf = roomIndices(scenario);
    const pre = poolPages(scenario, 'prefill');
    const dec = poolPages(scenario, 'decode');
    // A row takes a page per `pageSize` positions it computes (a page a double free put on the
    // free list twice is taken twice, still one entry per allocation): prefill computes at most
    // the prompt, decode holds the prompt and then one position per output token.
    const most = (len: (r: Scenario['requests'][number]) => number) =>
      Math.max(1, ...scenario.requests.map((r) => pagesFor(len(r), scenario.pageSize)));
    const prefillRow = most((r) => r.promptLen);
    const decodeRow = most((r) => r.promptLen + r.outputLen);
    const dstRow = most((r) => r.promptLen);
    // A free list holds each page once, plus the repeats of double frees (at most two frees of
    // each row). A write into unheld pages adds a stray entry per page it touches, at most its
    // row's pages: prefill writes once per chunk, the transfer once per chunk sent and once for
    // a late write, and decode steps write only pages their row holds. `listPush` refuses to
    // overflow, so a wrong bound fails loudly instead of corrupting a state.
    const freeCap = (pages: number, row: number) => pages + 2 * n * row;
    let at = scalarWords;
    const list = (cap: number): ListSlot => {
      const slot = { at, cap };
      at += cap + 1;
      return slot;
    };
    this.writerCodes = n + 1;
    this.writerOrder = [
      0,
      ...this.requests
        .map((id, i) => ({ id, code: i + 1 }))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .map((x) => x.code),
    ];
    const readBits = (pre + dec) * this.writerCodes;
    this.lists = {
      prefillPages: list(prefillRow),
      decodePages: list(decodeRow),
      dstPages: list(this.mechanisms.lateWrites ? dstRow : 0),
      prefixPages: list(cache ? prefillRow : 0),
      cachedPages: list(cache ? prefillRow : 0),
      hostKv: list(n >= 2 ? decodeRow * scenario.pageSize : 0),
      srcPages: list(scenario.transfer === 'pull' ? prefillRow : 0),
      reads: at,
    };
    at += Math.ceil(readBits / 32);
    this.blockWords = at;
    let g = n * this.blockWords;
    const chunks = Math.max(1, scenario.prefillChunks);
    const pool = (pages: number, row: number, writes: number): PoolLayout => {
      const free = { at: g, cap: freeCap(pages, row) };
      g += free.cap + 1;
      const owner = g;
      g += pages;
      const writer = g;
      g += pages * scenario.pageSize;
      const stray = { at: g, cap: n * row * writes };
      g += 2 * stray.cap + 1;
      return { pages, free, owner, writer, stray };
    };
    this.prefill = pool(pre, prefillRow, chunks);
    this.decode = pool(dec, decodeRow, chunks + 1);
    this.auxFree = { at: g, cap: scenario.auxSlots ?? 0 };
    g += this.auxFree.cap + 1;
    this.transferFaultsLeft = g++;
    this.clientAbortsLeft = g++;
    this.retractPending = g++;
    const rooms = this.mechanisms.sharedRooms ? Math.max(...this.roomOf) + 1 : 0;
    this.roomDst = g;
    g += rooms;
    this.roomConcluded = g;
    g += rooms;
    this.words = g;
    this.places = new Map(
      this.requests.map((id, i) => [id, Object.freeze({ i, code: i + 1, b: this.block(i) })]),
    );
  }

  /** The index of request `rid`; throws on an id the scenario does not have. */
  indexOf(rid: RequestId): number {
    return this.placeOf(rid).i;
  }

  /**
   * Where request `rid` lives: its index, its code (index + 1) and its block's first word; one
   * shared object per request, so a lookup allocates nothing. Throws on an unknown id.
   */
  placeOf(rid: RequestId): RequestPlace {
    const place = this.places.get(rid);
    if (place === undefined) throw new Error(`unknown request ${rid}`);
    return place;
  }

  /** The request id that code `code` names (index + 1), or null for 0 (nobody). */
  idOf(code: number): RequestId | null {
    return code === 0 ? null : (this.requests[code - 1] ?? null);
  }

  /** The first word of request `i`'s block. */
  block(i: number): number {
    return i * this.blockWords;
  }

  /** The pool of `node`. */
  pool(node: NodeRole): PoolLayout {
    return node === 'prefill' ? this.prefill : this.decode;
  }

  /** The bit of the read (node, page, writer code) in a request's read bitset. */
  readBit(node: NodeRole, page: number, writer: number): number {
    const base = node === 'prefill' ? 0 : this.prefill.pages * this.writerCodes;
    return base + page * this.writerCodes + writer;
  }

  /**
   * The variable word `w` belongs to: a request block's scalar field, list or read bitset (scope
   * `request`, with the request's index), a pool's variable (scope `prefill` or `decode`), or a
   * global (scope `global`). Names are those of the module doc (`pollPeak`, `decodePages`,
   * `reads`, `free`, `auxFree`, …).
   */
  variableOf(w: number): Variable {
    const n = this.requests.length;
    if (w < n * this.blockWords) {
      const i = Math.floor(w / this.blockWords);
      const o = w - this.block(i);
      const scalar = Object.entries(F).find(([, at]) => at === o)?.[0];
      const list = Object.entries(this.lists).find(
        ([name, slot]) => name !== 'reads' && o >= slot.at && o <= slot.at + slot.cap,
      )?.[0];
      return { scope: 'request', request: i, name: scalar ?? list ?? 'reads' };
    }
    for (const node of ['prefill', 'decode'] as const) {
      const p = this.pool(node);
      const name =
        w >= p.free.at && w <= p.free.at + p.free.cap
          ? 'free'
          : w >= p.owner && w < p.owner + p.pages
            ? 'owner'
            : w >= p.writer && w < p.stray.at
              ? 'writer'
              : w >= p.stray.at && w <= p.stray.at + 2 * p.stray.cap
                ? 'stray'
                : null;
      if (name) return { scope: node, name };
    }
    if (w >= this.auxFree.at && w <= this.auxFree.at + this.auxFree.cap) {
      return { scope: 'global', name: 'auxFree' };
    }
    const globals: [number, GlobalVariable][] = [
      [this.transferFaultsLeft, 'transferFaultsLeft'],
      [this.clientAbortsLeft, 'clientAbortsLeft'],
      [this.retractPending, 'retractPending'],
    ];
    const global = globals.find(([at]) => at === w)?.[1];
    return {
      scope: 'global',
      name: global ?? (w >= this.roomConcluded ? 'roomConcluded' : 'roomDst'),
    };
  }

  /**
   * The variable word `w` belongs to, for messages: `<request>.<field>` for a request block's
   * scalar field, list or read bitset (`a1.pollPeak`, `a1.decodePages`, `a1.reads`),
   * `<node>.<variable>` for a pool (`prefill.free`, `decode.owner`), or a global's name.
   */
  wordName(w: number): string {
    const v = this.variableOf(w);
    if (v.scope === 'global') return v.name;
    return `${v.scope === 'request' ? this.requests[v.request] : v.scope}.${v.name}`;
  }

  /**
   * The words of the variables `reads` names, in increasing order: its request variables in
   * every request's block, its pool variables in both pools, its globals.
   */
  wordsOf(reads: VariableReads): number[] {
    const request = new Set<string>(reads.request ?? []);
    const pool = new Set<string>(reads.pool ?? []);
    const global = new Set<string>(reads.global ?? []);
    this.variables ??= Array.from({ length: this.words }, (_, w) => this.variableOf(w));
    const out: number[] = [];
    this.variables.forEach((v, w) => {
      const set = v.scope === 'request' ? request : v.scope === 'global' ? global : pool;
      if (set.has(v.name)) out.push(w);
    });
    return out;
  }

  /** Each word's variable (`variableOf`), made by the first `wordsOf` and kept. */
  private variables: readonly Variable[] | null = null;

  /** A layout is static: it renders as its shape, never as its tables, in JSON. */
  toJSON(): string {
    return `layout(${this.words} words)`;
  }
}

const layouts = new WeakMap<Scenario, Layout>();

/** The layout of `scenario` (one per scenario object). */
export function layoutOf(scenario: Scenario): Layout {
  let layout = layouts.get(scenario);
  if (layout === undefined) {
    layout = new Layout(scenario);
    layouts.set(scenario, layout);
  }
  return layout;
}
