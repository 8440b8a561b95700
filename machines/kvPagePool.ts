/**
 * A node's paged KV allocator as plain data, with pure operations used by the machines'
 * `assign` actions.
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
 */
import type { RequestId } from './scenario.ts';

/** A write into a page the writer does not own: the footprint of a write after free. */
export interface StrayWrite {
  readonly page: number;
  readonly by: RequestId;
}

/** One node's KV pool. Arrays are indexed by page (owner) or by slot (writer). */
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

/** A fresh pool of `pages` pages: all free, none ever written. */
export function createPool(pages: number, pageSize: number): PagePool {
  return {
    pageSize,
    free: Array.from({ length: pages }, (_, p) => p),
    owner: Array.from({ length: pages }, () => null),
    writer: Array.from({ length: pages * pageSize }, () => null),
    strayWrites: [],
  };
}

/** Number of pages in the pool. */
export function capacityOf(pool: PagePool): number {
  return pool.owner.length;
}

/** Whether `n` pages can be allocated now. */
export function canAllocate(pool: PagePool, n: number): boolean {
  return pool.free.length >= n;
}

/**
 * Takes `n` pages from the head of the free list for `rid`. Returns the new pool and the pages
 * in allocation order, or null when fewer than `n` pages are free. Slots keep their last writer.
 */
export function allocatePages(
  pool: PagePool,
  rid: RequestId,
  n: number,
): { pool: PagePool; pages: number[] } | null {
  if (!canAllocate(pool, n)) return null;
  const pages = pool.free.slice(0, n);
  const owner = pool.owner.map((o, p) => (pages.includes(p) ? rid : o));
  return { pool: { ...pool, free: pool.free.slice(n), owner }, pages };
}

/**
 * Frees `pages`: they are prepended to the free list in ascending order and lose their owner.
 * Slot contents (last writers) are untouched. Freeing a page that is already free is not
 * refused; it puts the page on the free list twice, as the engine would.
 */
export function freePages(pool: PagePool, pages: readonly number[]): PagePool {
  if (pages.length === 0) return pool;
  const freed = [...new Set(pages)].sort((a, b) => a - b);
  const owner = pool.owner.map((o, p) => (freed.includes(p) ? null : o));
  return { ...pool, free: [...freed, ...pool.free], owner };
}

/** The page and offset that hold sequence position `pos` of a request whose row is `pages`. */
export function slotOf(pages: readonly number[], pos: number, pageSize: number): number | null {
  const page = pages[Math.floor(pos / pageSize)];
  return page === undefined ? null : page * pageSize + (pos % pageSize);
}

/**
 * Writes KV for positions `[from, to)` of the request `rid` whose row is `pages`. A write into a
 * page that `rid` does not own is still performed (the hardware does not check) and recorded as a
 * stray write.
 */
export function writePositions(
  pool: PagePool,
  rid: RequestId,
  pages: readonly number[],
  from: number,
  to: number,
): PagePool {
  const writer = [...pool.writer];
  const stray: StrayWrite[] = [];
  for (let pos = from; pos < to; pos++) {
    const slot = slotOf(pages, pos, pool.pageSize);
    if (slot === null) continue;
    writer[slot] = rid;
    const page = Math.floor(slot / pool.pageSize);
    if (pool.owner[page] !== rid && !stray.some((s) => s.page === page))
      stray.push({ page, by: rid });
  }
  const strayWrites = stray.length === 0 ? pool.strayWrites : [...pool.strayWrites, ...stray];
  return { ...pool, writer, strayWrites };
}

/** The last writer of each position in `[0, to)` of a row, in position order (null: never written). */
export function writersOf(
  pool: PagePool,
  pages: readonly number[],
  to: number,
): { page: number; writer: RequestId | null }[] {
  const out: { page: number; writer: RequestId | null }[] = [];
  for (let pos = 0; pos < to; pos++) {
    const slot = slotOf(pages, pos, pool.pageSize);
    if (slot === null) continue;
    out.push({ page: Math.floor(slot / pool.pageSize), writer: pool.writer[slot] ?? null });
  }
  return out;
}
