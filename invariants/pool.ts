/**
 * Page-pool properties: the allocator's own bookkeeping, which SGLang checks when idle
 * (`check_memory`) and which every isolation argument rests on.
 */
import { cachedPageCount } from '../machines/prefixCache.ts';
import type { NodeRole } from '../machines/scenario.ts';
import { poolView, type RequestView, requestViews } from '../machines/servingView.ts';
import { property, type Trigger } from './property.ts';
import {
  heldCount,
  holderOf,
  pageWritten,
  requestsOf,
  type ServingState,
  someRequest,
  who,
} from './vocabulary.ts';

/** Pool properties can fail only once some page is held or cached. */
const somePageHeld: Trigger = {
  fires: (s) =>
    heldCount(s, 'prefill') > 0 || heldCount(s, 'decode') > 0 || cachedPageCount(s.context) > 0,
  vacuity: 'no page was ever held',
};

/**
 * A set of pages, emptied in constant time by moving to a new stamp: the fast paths below mark
 * pages in one pass where the messages' scans compare every pair.
 */
class PageMarks {
  private stamps = new Uint32Array(0);
  private stamp = 0;

  /** Empties the set, for pages `[0, pages)`. */
  begin(pages: number): void {
    if (this.stamps.length < pages || this.stamp === 0xffffffff) {
      this.stamps = new Uint32Array(Math.max(pages, this.stamps.length));
      this.stamp = 0;
    }
    this.stamp++;
  }

  /** Whether `page` is in the set. */
  has(page: number): boolean {
    return this.stamps[page] === this.stamp;
  }

  /** Adds `page`. */
  add(page: number): void {
    this.stamps[page] = this.stamp;
  }
}

const marks = new PageMarks();

/** The pages held on a node and their holders' codes, as `heldOn` last collected them. */
let held = new Int32Array(64);

/**
 * Collects the pages the requests hold on `node` (requests, then rows, in order) into `held`,
 * as (page, holder code) pairs, and returns how many there are.
 */
function heldOn(s: ServingState, node: NodeRole): number {
  const rs = requestViews(s.context);
  let n = 0;
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    const m = r.pageCount(node);
    if (2 * (n + m) > held.length) {
      const grown = new Int32Array(4 * (n + m));
      grown.set(held);
      held = grown;
    }
    for (let k = 0; k < m; k++, n++) {
      held[2 * n] = r.pageAt(node, k);
      held[2 * n + 1] = r.code;
    }
  }
  return n;
}

/**
 * Whether `node`'s ownership holds, in one pass (the contract of `ownershipViolation` returning
 * null): every held page is in range, held once and owned by its holder, and the pool owns no
 * more pages than are held, so every owned page is in its owner's row.
 */
function ownershipHolds(s: ServingState, node: NodeRole): boolean {
  const pool = poolView(s.context, node);
  const capacity = pool.capacity;
  const n = heldOn(s, node);
  marks.begin(capacity);
  for (let k = 0; k < n; k++) {
    const page = held[2 * k] as number;
    if (page < 0 || page >= capacity || marks.has(page)) return false;
    if (pool.owner(page) !== held[2 * k + 1]) return false;
    marks.add(page);
  }
  let owned = 0;
  for (let page = 0; page < capacity; page++) if (pool.owner(page) !== 0) owned++;
  return owned === n;
}

/**
 * The first violation of exclusive ownership on `node`, scanning held pages in request then row
 * order, then the pool's owners in page order; null when there is none (allocating nothing).
 */
function ownershipViolation(s: ServingState, node: NodeRole): string | null {
  if (ownershipHolds(s, node)) return null;
  const pool = poolView(s.context, node);
  const L = s.context.layout;
  const rs = requestViews(s.context);
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    const n = r.pageCount(node);
    for (let k = 0; k < n; k++) {
      const page = r.pageAt(node, k);
      const other = earlierHolder(rs, node, i, k, page);
      if (other !== null) return `${node} page ${page} is held by both ${other.id} and ${r.id}`;
      const owner = page >= 0 && page < pool.capacity ? pool.owner(page) : 0;
      if (owner !== r.code) {
        return `${node} page ${page} is held by ${r.id} but owned by ${L.idOf(owner) ?? 'nobody'}`;
      }
    }
  }
  for (let page = 0; page < pool.capacity; page++) {
    const owner = pool.owner(page);
    if (owner !== 0 && holderOf(rs, node, page) !== owner) {
      return `${node} page ${page} is owned by ${L.idOf(owner)} but not in its row`;
    }
  }
  return null;
}

/** The request holding `page` before entry `k` of request `i`'s row, in scan order, or null. */
function earlierHolder(
  rs: readonly RequestView[],
  node: NodeRole,
  i: number,
  k: number,
  page: number,
): RequestView | null {
  for (let j = 0; j <= i; j++) {
    const q = rs[j] as RequestView;
    const n = j === i ? k : q.pageCount(node);
    for (let m = 0; m < n; m++) if (q.pageAt(node, m) === page) return q;
  }
  return null;
}

/** A page has one holder, and the pool's owner field agrees with the requests' rows. */
export const exclusivePageOwnership = property(
  'A page is held by at most one live request, and the pool records that request as its owner.',
  {
    guards: '#35049 (a page reallocated while a transfer still writes it)',
    reads: { request: ['prefillPages', 'decodePages', 'cachedPages'], pool: ['owner'] },
    trigger: somePageHeld,
  },
  (s) => ownershipViolation(s, 'prefill') ?? ownershipViolation(s, 'decode'),
);

/** Whether some page on `node`'s free list has a written slot. */
function writtenPageFree(s: ServingState, node: NodeRole): boolean {
  const pool = poolView(s.context, node);
  const n = pool.freeCount;
  for (let k = 0; k < n; k++) if (pageWritten(pool, pool.freeAt(k))) return true;
  return false;
}

/**
 * Whether `node`'s free list holds each page at most once and no held page (the contract of
 * `freeViolation` returning null), in one pass over each list. A page out of range answers
 * false, leaving it to `freeViolation`'s scans.
 */
function freedOnce(s: ServingState, node: NodeRole): boolean {
  const pool = poolView(s.context, node);
  const capacity = pool.capacity;
  marks.begin(capacity);
  const n = pool.freeCount;
  for (let k = 0; k < n; k++) {
    const page = pool.freeAt(k);
    if (page < 0 || page >= capacity || marks.has(page)) return false;
    marks.add(page);
  }
  const m = heldOn(s, node);
  for (let k = 0; k < m; k++) {
    const page = held[2 * k] as number;
    if (page < 0 || page >= capacity || marks.has(page)) return false;
  }
  return true;
}

/** The first double free or free-while-held on `node`, or null (allocating nothing). */
function freeViolation(s: ServingState, node: NodeRole): string | null {
  if (freedOnce(s, node)) return null;
  const pool = poolView(s.context, node);
  const n = pool.freeCount;
  for (let k = 0; k < n; k++) {
    const page = pool.freeAt(k);
    for (let j = 0; j < k; j++) {
      if (pool.freeAt(j) === page) return `${node} page ${page} is on the free list twice`;
    }
  }
  const rs = requestViews(s.context);
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    const m = r.pageCount(node);
    for (let k = 0; k < m; k++) {
      const page = r.pageAt(node, k);
      if (pool.isFree(page)) return `${node} page ${page} is free while ${r.id} still holds it`;
    }
  }
  return null;
}

/** No page is freed twice or freed while still held. */
export const freedExactlyOnce = property(
  'Every page is on its free list at most once, and never while a request holds it.',
  {
    guards: '#30937 (a double release on an error during transfer)',
    reads: { request: ['prefillPages', 'decodePages'], pool: ['free', 'writer'] },
    trigger: {
      fires: (s) => writtenPageFree(s, 'prefill') || writtenPageFree(s, 'decode'),
      vacuity: 'no written page was ever freed',
    },
  },
  (s) => freeViolation(s, 'prefill') ?? freeViolation(s, 'decode'),
);

/** Whether `r`'s room drains a write that will still land (with `lateWrites`). */
function draining(r: RequestView): boolean {
  return r.draining;
}

/** KV lands only in pages the writing request holds. */
export const noWriteAfterFree = property(
  'KV is written only into pages that the writing request holds.',
  {
    guards: '#24527, #35049 (a late transfer write into a freed, reallocated page)',
    reads: { request: ['draining'], pool: ['stray'] },
    trigger: {
      fires: (s) =>
        someRequest(s, draining) ||
        poolView(s.context, 'prefill').strayCount > 0 ||
        poolView(s.context, 'decode').strayCount > 0,
      vacuity: 'no transfer write was in flight after its room was aborted',
    },
  },
  (s) => strayWrite(s, 'prefill') ?? strayWrite(s, 'decode'),
);

/** The first stray write recorded on `node`, as a violation message, or null. */
function strayWrite(s: ServingState, node: NodeRole): string | null {
  const pool = poolView(s.context, node);
  if (pool.strayCount === 0) return null;
  const by = s.context.layout.idOf(pool.strayBy(0)) ?? '?';
  return `${by} wrote ${node} page ${pool.strayPage(0)} without holding it`;
}

/** Whether some request's KV reached decode, or some request attended over KV. */
function kvWasRead(r: RequestView): boolean {
  return r.kvArrived > 0 || r.committed;
}

/** KV is read only from pages the reading request holds. */
export const noReadAfterFree = property(
  'KV is read, by the transfer or by attention, only from pages the reading request holds (its own, or cached prefix pages it has locked).',
  {
    guards:
      'prefill KV released while its sender still transfers it (#30937, B6), or reused by another request before the transfer read it',
    reads: { request: ['readFreedPrefill', 'readFreedDecode', 'committed', 'kvArrived'] },
    trigger: {
      fires: (s) => someRequest(s, kvWasRead),
      vacuity: 'no KV was transferred or read',
    },
  },
  (s) => {
    const rs = requestsOf(s);
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i] as RequestView;
      const prefill = r.readFreed('prefill');
      if (prefill !== -1) return readFreedText(s, r, 'prefill', prefill);
      const decode = r.readFreed('decode');
      if (decode !== -1) return readFreedText(s, r, 'decode', decode);
    }
    return null;
  },
);

function readFreedText(s: ServingState, r: RequestView, node: NodeRole, page: number): string {
  return `${who(s, r.id)}: its KV was read from ${node} page ${page}, which it no longer held`;
}

/** Free plus held (plus cached) equals capacity, on each node. */
export const poolAccounting = property(
  'On each node, free pages plus pages held by live requests (or by the prefix cache) equal the pool’s capacity.',
  {
    guards: 'SGLang’s own idle check (`check_memory`: available + evictable == size)',
    reads: { request: ['prefillPages', 'decodePages', 'cachedPages'], pool: ['free'] },
    trigger: somePageHeld,
  },
  (s) => accountingViolation(s, 'prefill') ?? accountingViolation(s, 'decode'),
);

/** Whether `node`'s free, held and cached pages add up to its capacity; a message if not. */
function accountingViolation(s: ServingState, node: NodeRole): string | null {
  const pool = poolView(s.context, node);
  const held = heldCount(s, node);
  const capacity = pool.capacity;
  // Pages of prefill's prefix cache count as held (by the cache), as SGLang's protected
  // and evictable sizes do; there are none unless a scenario names a prefix.
  const cached = node === 'prefill' ? cachedPageCount(s.context) : 0;
  if (pool.freeCount + held + cached === capacity) return null;
  const inCache = cached > 0 ? ` cached=${cached}` : '';
  return `${node} pool: free=${pool.freeCount} held=${held}${inCache} capacity=${capacity}`;
}
