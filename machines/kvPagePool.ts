/**
 * A node's paged KV allocator, as operations on the state vector (`layout.ts`) that the
 * machines' updates run in place.
 *
 * Follows SGLang's `PagedTokenToKVPoolAllocator`: `free` prepends the freed pages (sorted) to the
 * free list and `alloc` takes from its head, so freed pages are handed out first. Freeing never
 * scrubs: each KV slot keeps its last writer until someone overwrites it, which is the behaviour
 * that turned the 2026 reject path into a leak. There is no double-free check (as upstream
 * outside `SGLANG_DEBUG_MEMORY_POOL`); a double free shows up as a duplicate on the free list.
 *
 * Deliberately left out: page 0's reservation for padded tokens (capacity here counts usable
 * pages only) and scrubbing. Prefill's prefix cache, when a scenario has one, lives in
 * `prefixCache.ts`: cached pages are owned by no request and are not on the free list.
 *
 * Requests are codes here: request `i` is `i + 1`, and 0 is nobody.
 */
import type { ListSlot, PoolLayout } from './layout.ts';
import type { RequestId } from './scenario.ts';
import { listAt, listDropHead, listLen, listPrepend, listPush } from './vectorOps.ts';

/** A write into a page the writer does not own: the footprint of a write after free. */
export interface StrayWrite {
  readonly page: number;
  readonly by: RequestId;
}

/** One node's KV pool, decoded for rendering. Arrays are indexed by page (owner) or slot (writer). */
export interface PagePool {
  /** Tokens per page. */
  readonly pageSize: number;
  /** Free page ids, head first: the next allocation takes from the front. */
  readonly free: readonly number[];
  /** The request holding each page, or null when the page is free. */
  readonly owner: readonly (RequestId | null)[];
  /** The last request that wrote each slot (`page * pageSize + offset`), or null if never written. */
  readonly writer: readonly (RequestId | null)[];
  /** Writes that landed in a page their request did not own (ghost record for invariants). */
  readonly strayWrites: readonly StrayWrite[];
}

/** Writes a fresh pool into `w`: every page free in ascending order, none owned or written. */
export function initPool(w: Int32Array, pool: PoolLayout): void {
  for (let p = 0; p < pool.pages; p++) listPush(w, 0, pool.free, p);
}

/** Free pages now (a duplicate counts twice). */
export function freeCount(w: Int32Array, pool: PoolLayout): number {
  return listLen(w, 0, pool.free);
}

/** Whether `n` pages can be allocated now. */
export function canAllocate(w: Int32Array, pool: PoolLayout, n: number): boolean {
  return freeCount(w, pool) >= n;
}

/**
 * Takes `n` pages from the head of the free list for request `code` and appends them, in
 * allocation order, to the row list `row` (at `base`). Slots keep their last writer. Returns
 * false, changing nothing, when fewer than `n` pages are free.
 */
export function allocatePages(
  w: Int32Array,
  pool: PoolLayout,
  code: number,
  n: number,
  base: number,
  row: ListSlot,
): boolean {
  if (!canAllocate(w, pool, n)) return false;
  for (let k = 0; k < n; k++) {
    const page = listAt(w, 0, pool.free, k);
    w[pool.owner + page] = code;
    listPush(w, base, row, page);
  }
  listDropHead(w, 0, pool.free, n);
  return true;
}

/**
 * Frees `pages`: they are prepended to the free list in ascending order and lose their owner.
 * Slot contents (last writers) are untouched. Freeing a page that is already free is not
 * refused; it puts the page on the free list twice, as the engine would.
 */
export function freePages(w: Int32Array, pool: PoolLayout, pages: readonly number[]): void {
  if (pages.length === 0) return;
  const freed = ascendingDistinct(pages);
  for (const p of freed) w[pool.owner + p] = 0;
  listPrepend(w, 0, pool.free, freed);
}

/**
 * The distinct numbers of `xs`, ascending: a new array. Insertion, since a row is a few pages
 * (a `Set` and a sort with a comparator cost more than the rest of a release).
 */
export function ascendingDistinct(xs: readonly number[]): number[] {
  const out: number[] = [];
  for (const x of xs) {
    let i = out.length;
    while (i > 0 && (out[i - 1] as number) > x) i--;
    if (i > 0 && out[i - 1] === x) continue;
    out.push(x);
    for (let k = out.length - 1; k > i; k--) out[k] = out[k - 1] as number;
    out[i] = x;
  }
  return out;
}

/** The slot that holds sequence position `pos` of a row, or -1 past the row's pages. */
export function slotOf(pages: readonly number[], pos: number, pageSize: number): number {
  const page = pages[Math.floor(pos / pageSize)];
  return page === undefined ? -1 : page * pageSize + (pos % pageSize);
}

/**
 * Writes KV for positions `[from, to)` of request `code` whose row is `pages`. A write into a
 * page that the request does not own is still performed (the hardware does not check) and
 * recorded as a stray write, once per page per call. Each slot's last writer becomes `code`, or,
 * for a copy, `provenance(pos)`: the last writer of the slot the position was copied from.
 */
export function writePositions(
  w: Int32Array,
  pool: PoolLayout,
  pageSize: number,
  code: number,
  pages: readonly number[],
  from: number,
  to: number,
  provenance?: (pos: number) => number,
): void {
  const strayFrom = listLen(w, 0, pool.stray);
  for (let pos = from; pos < to; pos++) {
    const slot = slotOf(pages, pos, pageSize);
    if (slot < 0) continue;
    w[pool.writer + slot] = provenance ? provenance(pos) : code;
    const page = Math.floor(slot / pageSize);
    if (w[pool.owner + page] !== code && !strayInCall(w, pool, strayFrom, page)) {
      pushStray(w, pool, page, code);
    }
  }
}

function strayInCall(w: Int32Array, pool: PoolLayout, from: number, page: number): boolean {
  const n = listLen(w, 0, pool.stray);
  for (let k = from; k < n; k++) if (w[pool.stray.at + 1 + 2 * k] === page) return true;
  return false;
}

function pushStray(w: Int32Array, pool: PoolLayout, page: number, code: number): void {
  const at = pool.stray.at;
  const n = w[at] as number;
  if (n >= pool.stray.cap) throw new Error('state vector: the stray-write list is full');
  w[at + 1 + 2 * n] = page;
  w[at + 2 + 2 * n] = code;
  w[at] = n + 1;
}

/** The number of stray writes recorded on the pool. */
export function strayCount(w: Int32Array, pool: PoolLayout): number {
  return listLen(w, 0, pool.stray);
}

/** Stray write `k`: its page and writer code. */
export function strayAt(
  w: Int32Array,
  pool: PoolLayout,
  k: number,
): { page: number; code: number } {
  const at = pool.stray.at + 1 + 2 * k;
  return { page: w[at] as number, code: w[at + 1] as number };
}

/**
 * Calls `visit(page, writerCode)` for each position in `[0, to)` of a row, in position order
 * (writer code 0: never written).
 */
export function forEachWriter(
  w: Int32Array,
  pool: PoolLayout,
  pageSize: number,
  pages: readonly number[],
  to: number,
  visit: (page: number, writer: number) => void,
): void {
  for (let pos = 0; pos < to; pos++) {
    const slot = slotOf(pages, pos, pageSize);
    if (slot < 0) continue;
    visit(Math.floor(slot / pageSize), w[pool.writer + slot] as number);
  }
}
