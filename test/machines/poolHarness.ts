/**
 * A scenario-free harness for the pool operations of `machines/kvPagePool.ts`: one pool and
 * one row list per request, laid out by hand in a vector of their own, and the pool decoded
 * back into the plain `PagePool` form (request names, null for nobody) for assertions.
 */
import { decodePool } from '../../machines/contextCodec.ts';
import {
  allocatePages,
  forEachWriter,
  initPool,
  type PagePool,
  writePositions,
} from '../../machines/kvPagePool.ts';
import type { ListSlot, PoolLayout } from '../../machines/layout.ts';
import { listClear, listItems, listLen } from '../../machines/vectorOps.ts';

/** One pool in a vector, with a row list per request. */
export interface PoolHarness {
  readonly pool: PoolLayout;
  readonly pageSize: number;
  /** Request names; request `i` is written `i + 1`. */
  readonly rids: readonly string[];
  /** Each request's row list (absolute: base 0), by index. */
  readonly rows: readonly ListSlot[];
  readonly words: Int32Array;
}

export interface HarnessOptions {
  /** Request names (default `a1`, `b1`, `c1`). */
  readonly rids?: readonly string[];
  /** Room for stray writes, in (page, writer) pairs (default: 4 per page and request). */
  readonly strayCap?: number;
}

/** A fresh pool of `pages` pages of `pageSize` slots: all free in ascending order, none written. */
export function poolHarness(
  pages: number,
  pageSize: number,
  opts: HarnessOptions = {},
): PoolHarness {
  const rids = opts.rids ?? ['a1', 'b1', 'c1'];
  // As in `layout.ts`: a double free can repeat a page on the free list and in a row.
  const listCap = pages * (rids.length + 1);
  let at = 0;
  const free = { at, cap: listCap };
  at += listCap + 1;
  const owner = at;
  at += pages;
  const writer = at;
  at += pages * pageSize;
  const stray = { at, cap: opts.strayCap ?? Math.max(1, 4 * pages * rids.length) };
  at += 2 * stray.cap + 1;
  const rows = rids.map(() => {
    const slot = { at, cap: listCap };
    at += listCap + 1;
    return slot;
  });
  const words = new Int32Array(at);
  const pool: PoolLayout = { pages, free, owner, writer, stray };
  initPool(words, pool);
  return { pool, pageSize, rids, rows, words };
}

/** The code of request `rid` (index + 1). */
export function codeOf(h: PoolHarness, rid: string): number {
  const i = h.rids.indexOf(rid);
  if (i < 0) throw new Error(`unknown request ${rid}`);
  return i + 1;
}

function nameOf(h: PoolHarness, code: number): string | null {
  return code === 0 ? null : (h.rids[code - 1] ?? `?${code}`);
}

/** The row list of `rid` (absolute: base 0). */
export function rowSlot(h: PoolHarness, rid: string): ListSlot {
  const row = h.rows[codeOf(h, rid) - 1];
  if (!row) throw new Error(`no row for ${rid}`);
  return row;
}

/** The pool decoded: free list, owners and writers by name, stray writes in order. */
export function poolOf(h: PoolHarness): PagePool {
  return decodePool(h.words, h.pool, h.pageSize, (code) => nameOf(h, code));
}

/** The pages `rid`'s row holds, in order. */
export function rowPages(h: PoolHarness, rid: string): number[] {
  return listItems(h.words, 0, rowSlot(h, rid));
}

/**
 * Allocates `n` pages for `rid` onto its row; returns the pages it took, in allocation order,
 * or null (changing nothing) when fewer than `n` are free.
 */
export function tryAllocate(h: PoolHarness, rid: string, n: number): number[] | null {
  const row = rowSlot(h, rid);
  const before = listLen(h.words, 0, row);
  if (!allocatePages(h.words, h.pool, codeOf(h, rid), n, 0, row)) return null;
  return listItems(h.words, 0, row).slice(before);
}

/** Allocates or fails the test: the tests using it only allocate what fits. */
export function allocate(h: PoolHarness, rid: string, n: number): number[] {
  const got = tryAllocate(h, rid, n);
  if (!got) {
    throw new Error(`expected ${n} free page(s) for ${rid}, found ${poolOf(h).free.length}`);
  }
  return got;
}

/** Empties `rid`'s row list (the pool itself is untouched: free its pages with `freePages`). */
export function clearRow(h: PoolHarness, rid: string): void {
  listClear(h.words, 0, rowSlot(h, rid));
}

/** Writes positions `[from, to)` of `rid`'s row `pages`. */
export function write(
  h: PoolHarness,
  rid: string,
  pages: readonly number[],
  from: number,
  to: number,
): void {
  writePositions(h.words, h.pool, h.pageSize, codeOf(h, rid), pages, from, to);
}

/** The last writer of each position in `[0, to)` of a row, in position order (null: never). */
export function writersOf(
  h: PoolHarness,
  pages: readonly number[],
  to: number,
): { page: number; writer: string | null }[] {
  const out: { page: number; writer: string | null }[] = [];
  forEachWriter(h.words, h.pool, h.pageSize, pages, to, (page, writer) =>
    out.push({ page, writer: nameOf(h, writer) }),
  );
  return out;
}
