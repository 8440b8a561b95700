/**
 * What one trace step changed, as data: a closed union of change records. `stepChanges` writes
 * them in a fixed order; the terminal, the report, the sequence diagrams and the ITF export read
 * them, and `src/export/changeText.ts` renders each as the sentence a reviewer reads.
 */
import type { NodeRole, RequestId, TenantId } from '../../machines/scenario.ts';

/** A request that wrote KV (or inserted a prefix-cache node), with its tenant (null: none known). */
export interface KvWriter {
  readonly rid: RequestId;
  readonly tenant: TenantId | null;
}

/** The regions whose moves are told as state paths; the transfer room is told as KVPoll. */
export type MovedRegion = 'router' | 'prefill' | 'decode';

/** Who replied: a side to the router, or the router to the client. */
export type ReplySide = NodeRole | 'client';

/** One change of one trace step. `kind` tells the members apart; the union is closed. */
export type TraceChange =
  /** `rid`'s router, prefill or decode region moved between two state paths (`placeholder.waiting`). */
  | {
      readonly kind: 'regionMoved';
      readonly rid: RequestId;
      readonly region: MovedRegion;
      readonly from: string;
      readonly to: string;
    }
  /** `rid`'s transfer room moved between two transfer-region states (`bootstrapping`, `success`). */
  | {
      readonly kind: 'roomPoll';
      readonly rid: RequestId;
      readonly from: string;
      readonly to: string;
    }
  /** Intake rejected `rid` on `side`, and its prompt was swapped for a 1-token placeholder. */
  | { readonly kind: 'placeholderSwapped'; readonly rid: RequestId; readonly side: NodeRole }
  /** Prefill hit an error on `rid` and left the abort pending (`to_finish`); no region moved. */
  | { readonly kind: 'abortPending'; readonly rid: RequestId }
  /** Decode's count of `rid`'s KV positions that arrived is now `positions`. */
  | { readonly kind: 'kvArrived'; readonly rid: RequestId; readonly positions: number }
  /** Decode committed `rid` with sequence length `seqLen`. */
  | { readonly kind: 'committed'; readonly rid: RequestId; readonly seqLen: number }
  /** `rid` took decode metadata (aux) slot `slot`. */
  | { readonly kind: 'auxSlotTaken'; readonly rid: RequestId; readonly slot: number }
  /** `rid` gave back decode metadata slot `slot` when its room was reset. */
  | { readonly kind: 'auxSlotFreed'; readonly rid: RequestId; readonly slot: number }
  /** Decode metadata slot `slot` now holds the aux data prefill sent for `rid`'s room. */
  | { readonly kind: 'auxDataWritten'; readonly rid: RequestId; readonly slot: number }
  /** `rid` took its first token from aux data written for another room. */
  | { readonly kind: 'foreignFirstToken'; readonly rid: RequestId }
  /** `rid`'s decode pages are kept until the in-flight write into them drains. */
  | { readonly kind: 'releaseDeferred'; readonly rid: RequestId }
  /** Decode retracted the request: the KV of its `positions` positions was copied to host. */
  | { readonly kind: 'kvOffloaded'; readonly rid: RequestId; readonly positions: number }
  /** A retracted request resumed: its host copy of `positions` positions was loaded back. */
  | { readonly kind: 'kvLoaded'; readonly rid: RequestId; readonly positions: number }
  /** `rid` reuses (and locks) the prefill prefix-cache pages `pages`. */
  | { readonly kind: 'prefixReused'; readonly rid: RequestId; readonly pages: readonly number[] }
  /**
   * `node`'s page `page` was allocated to `rid`; `heldKvOf` lists, each once in slot order, the
   * requests whose KV its slots still hold (empty: a clean page).
   */
  | {
      readonly kind: 'pageAllocated';
      readonly node: NodeRole;
      readonly page: number;
      readonly rid: RequestId;
      readonly heldKvOf: readonly RequestId[];
    }
  /**
   * `rid` released `node`'s page `page`, which keeps its KV (pages are not scrubbed). `cachedBy`:
   * null when the page went back to the free list; otherwise the page stays in the prefill prefix
   * cache under the node that request inserted.
   */
  | {
      readonly kind: 'pageFreed';
      readonly node: NodeRole;
      readonly page: number;
      readonly rid: RequestId;
      readonly cachedBy: KvWriter | null;
    }
  /**
   * A slot of `node`'s page `page` got a new last writer: `slot` is its offset in the page (null
   * when a page is one slot), `writer` the new one (null: nobody), `was` the request that last
   * wrote it before (null: never written).
   */
  | {
      readonly kind: 'slotWritten';
      readonly node: NodeRole;
      readonly page: number;
      readonly slot: number | null;
      readonly writer: KvWriter | null;
      readonly was: RequestId | null;
    }
  /**
   * `rid`'s attention read `node`'s page `page`, last written by `writer` (null: nobody);
   * `foreign` when that writer belongs to another tenant: the leak.
   */
  | {
      readonly kind: 'slotRead';
      readonly rid: RequestId;
      readonly node: NodeRole;
      readonly page: number;
      readonly writer: KvWriter | null;
      readonly foreign: boolean;
    }
  /** `side` replied for `rid` with HTTP `status` and `tokens` generated tokens. */
  | {
      readonly kind: 'reply';
      readonly rid: RequestId;
      readonly side: ReplySide;
      readonly status: number;
      readonly tokens: number;
    };

/** The tag of a change record. */
export type ChangeKind = TraceChange['kind'];

/** The change record of kind `K`. */
export type ChangeOf<K extends ChangeKind> = Extract<TraceChange, { readonly kind: K }>;
