/**
 * The composed system's context: a state vector (`layout.ts`) holding both pools, one block per
 * request and the ghost fields the invariants need, next to its static layout. The update
 * functions (`servingUpdates.ts`) write it in place; XState runs them on a copy. The decoded
 * form (`DecodedContext`, `contextCodec.ts`) is plain JSON in a fixed key order, for rendering.
 */
import type { VectorContext } from '../src/engine/index.ts';
import { initPool, type PagePool } from './kvPagePool.ts';
import { F, type Layout, layoutOf } from './layout.ts';
import type { NodeRole, RequestId, Scenario, TenantId } from './scenario.ts';
import { listPush } from './vectorOps.ts';

/**
 * The serving machine's context: `words` is the whole state; `layout` is static (the same
 * object in every state of a run) and not part of a state's identity.
 */
export interface ServingContext extends VectorContext {
  readonly layout: Layout;
  readonly words: Int32Array;
}

/** A reply as an HTTP status and the number of generated tokens it carries. */
export interface Reply {
  readonly status: number;
  readonly tokens: number;
}

/** One attention read: which node, which page, and who last wrote the slot (null: nobody). */
export interface KvRead {
  readonly node: NodeRole;
  readonly page: number;
  readonly writer: RequestId | null;
}

/** KVPoll values as SGLang numbers them (`disaggregation/base/conn.py`). */
export const kvPoll = {
  failed: 0,
  bootstrapping: 1,
  waitingForInput: 2,
  transferring: 3,
  success: 4,
} as const;

/**
 * Why a side aborted a request after intake, as the vector stores it (0: it did not):
 * - `transferFailed`: the room went Failed and the side's poll saw it;
 * - `bootstrapTimeout`: prefill's sender timed out in Bootstrapping (decode never sent its pages);
 * - `prefillError`: an error in prefill's forward while the KV was in flight;
 * - `waitTimeout`: decode's waiting timeout for KV that can no longer come;
 * - `commitRefused`: decode's commit checks (coverage, the aux slot's room) refused the KV.
 */
export const abortCause = {
  transferFailed: 1,
  bootstrapTimeout: 2,
  prefillError: 3,
  waitTimeout: 4,
  commitRefused: 5,
} as const;

/** The name of an abort cause. */
export type AbortCause = keyof typeof abortCause;

/** Abort cause names by code (index 0, no abort, is null). */
export const abortCauseNames: readonly (AbortCause | null)[] = [
  null,
  ...(Object.keys(abortCause) as AbortCause[]),
];

/** Everything one request holds or has done, on both sides, decoded (see `DecodedContext`). */
export interface RequestState {
  /** Tokens prefill computes: the prompt, or 1 for the placeholder. */
  readonly prefillLen: number;
  /** Prefill pool pages held, in row order. */
  readonly prefillPages: readonly number[];
  /** Tokens prefill has computed so far (chunk by chunk). */
  readonly prefilled: number;
  /** Positions whose KV prefill has sent (enqueued) to decode so far. */
  readonly kvSentUpTo: number;
  /** Tokens decode preallocated for: the prompt, or 1 for a placeholder. */
  readonly decodeLen: number;
  /** Decode pool pages held, in row order. */
  readonly decodePages: readonly number[];
  /** Positions the transfer wrote into decode's pages for this room. */
  readonly kvArrived: number;
  /** Decode's sequence length: positions with KV in the row. */
  readonly seqLen: number;
  /** Output tokens produced so far (the first comes from prefill's aux slot). */
  readonly generated: number;
  readonly prefillReply: Reply | null;
  readonly decodeReply: Reply | null;
  readonly clientReply: Reply | null;
  /** Ghost: how many terminal replies each side and the router emitted. */
  readonly replyCount: {
    readonly prefill: number;
    readonly decode: number;
    readonly client: number;
  };
  /** Ghost: rejected at intake by prefill's or decode's checks. */
  readonly rejectedOnPrefill: boolean;
  readonly rejectedOnDecode: boolean;
  /** Ghost: why prefill aborted the request after intake, or null if it did not. */
  readonly prefillAbort: AbortCause | null;
  /** Ghost: why decode aborted the request after intake, or null if it did not. */
  readonly decodeAbort: AbortCause | null;
  /** The client aborted the request; sides that defer an abort read it on their next step. */
  readonly clientAborted: boolean;
  /** The router posted the request to both sides (it did not refuse it at dispatch). */
  readonly dispatched: boolean;
  /** Ghost: a KV chunk or aux data was sent for this request's room. */
  readonly kvSent: boolean;
  /** Ghost: decode committed this request (it joined the running batch). */
  readonly committed: boolean;
  /**
   * Ghost: per node, the first page this request's KV was read from (by the transfer or by
   * attention) while the request did not hold it, or null.
   */
  readonly readAfterFree: { readonly prefill: number | null; readonly decode: number | null };
  /** Ghost: attention reads, deduplicated and sorted. */
  readonly reads: readonly KvRead[];
  /** Ghost: the highest non-Failed KVPoll the room reached, -1 before it opened. */
  readonly pollPeak: number;
  /** Ghost: the room has been Failed. */
  readonly pollFailed: boolean;
  /**
   * With `lateWrites`: the destination pages decode sent in its metadata (`dst_kv_indices`),
   * which a late write still targets after decode has let them go. Absent otherwise.
   */
  readonly dstPages?: readonly number[];
  /** With `lateWrites`: decode keeps its pages until the room's in-flight write has drained. */
  readonly releaseDeferred?: boolean;
  /**
   * With `lateWrites`: the room failed by an abort while a write was in flight, and that write
   * will still land (the transfer region is `draining`). A transfer failure drops the write.
   */
  readonly draining?: boolean;
  /** With `auxSlots`: the metadata slot decode holds for this request, or null. */
  readonly auxSlot?: number | null;
  /** With `auxSlots`: the slot index sent in the metadata (`dst_aux_index`), or null. */
  readonly dstAux?: number | null;
  /** With `auxSlots`: the slot that now holds this room's aux data, or null (none, or reset). */
  readonly auxIn?: number | null;
  /** With `auxSlots`, ghost: decode took the first token from aux written for another room. */
  readonly firstTokenForeign?: boolean;
  /**
   * With the prefix cache: the cache node this request inserted when prefill released it
   * (its prefix pages, now owned by no request) and how many requests have it locked; or null.
   */
  readonly cachedPrefix?: { readonly pages: readonly number[]; readonly lockRef: number } | null;
  /** With the prefix cache: the cached pages this request's prefill row starts with (locked). */
  readonly prefixPages?: readonly number[];
  /**
   * With two or more requests (decode may retract): the host copy of a retracted request's KV,
   * per position `[0, seqLen)` the writer its slot held when it was offloaded; empty while the
   * request is not retracted.
   */
  readonly hostKv?: readonly (RequestId | null)[];
  /** With shared rooms, ghost: how the request crossed another incarnation (bits, `layout.ts`). */
  readonly roomCrossed?: number;
  /** With pull-mode transfer: the prefill pages whose ids prefill handed to decode. */
  readonly srcPages?: readonly number[];
}

/** What the incarnations of one shared bootstrap room share (`machines/rooms.ts`). */
export interface SharedRoom {
  /** The request whose destination prefill's `transfer_infos[room]` holds, or null. */
  readonly destination: RequestId | null;
  /** Decode's status entry for the room. */
  readonly decodeEntry: 'none' | 'success' | 'failed';
}

/**
 * The composed system's context decoded into plain JSON (`contextCodec.ts`): what traces,
 * reports and ITF render, and what tests build states from.
 */
export interface DecodedContext {
  /** Static: each request's tenant. Not part of a state's identity. */
  readonly tenants: Readonly<Record<RequestId, TenantId>>;
  /**
   * Static, with the prefix cache: each request's prefix group, or null for a request without
   * a shared prefix; what a cache lookup matches on besides the salt. Absent otherwise.
   */
  readonly prefixGroups?: Readonly<Record<RequestId, string | null>>;
  readonly prefillPool: PagePool;
  readonly decodePool: PagePool;
  readonly requests: Readonly<Record<RequestId, RequestState>>;
  /** With `auxSlots`: decode's free metadata slots, head first. Absent otherwise. */
  readonly auxFree?: readonly number[];
  /** With `transferFaults` and `maxTransferFaults`: room failures still possible. Absent otherwise. */
  readonly transferFaultsLeft?: number;
  /** With `clientAborts` and `maxClientAborts`: client aborts still possible. Absent otherwise. */
  readonly clientAbortsLeft?: number;
  /**
   * With two or more requests: decode retracted a request and its batch has run no step since,
   * so no retracted request resumes yet. Absent otherwise.
   */
  readonly retractPending?: boolean;
  /** With shared rooms: each room's shared entries, by room index (`Layout.roomOf`). */
  readonly rooms?: readonly SharedRoom[];
}

/** The context at the start of a run of `scenario`: empty pools, nothing dispatched. */
export function initialContext(scenario: Scenario): ServingContext {
  const layout = layoutOf(scenario);
  const w = new Int32Array(layout.words);
  for (let i = 0; i < layout.requests.length; i++) {
    const b = layout.block(i);
    w[b + F.pollPeak] = -1;
    w[b + F.auxSlot] = -1;
    w[b + F.dstAux] = -1;
    w[b + F.auxIn] = -1;
    w[b + F.cachedLockRef] = -1;
  }
  initPool(w, layout.prefill);
  initPool(w, layout.decode);
  for (let slot = 0; slot < layout.auxFree.cap; slot++) listPush(w, 0, layout.auxFree, slot);
  w[layout.transferFaultsLeft] =
    scenario.transferFaults && scenario.maxTransferFaults !== undefined
      ? scenario.maxTransferFaults
      : -1;
  w[layout.clientAbortsLeft] =
    scenario.clientAborts && scenario.maxClientAborts !== undefined ? scenario.maxClientAborts : -1;
  return { layout, words: w };
}
