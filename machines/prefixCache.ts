/**
 * Prefill's prefix (radix) cache, in the abstract, after SGLang's `mem_cache/radix_cache.py`.
 *
 * A request whose spec names a shared `prefix` may, once prefill has computed that prefix,
 * leave its page-aligned prefix pages in the cache when it releases its KV (`cache_finished_req`)
 * instead of freeing them: the pages become one cache node, owned by no request, whose key is
 * the prefix group and the inserting request's cache salt (`RadixKey(token_ids, extra_key)`).
 * The salt is per tenant: a tenant's requests share one, and different tenants never do. A
 * later request whose prompt starts with the same prefix and whose key matches reuses the
 * node's pages at its first forward (`match_prefix`, with `inc_lock_ref`): its row starts with
 * them, it computes only the rest, and its attention reads them. Releasing it unlocks the node.
 * At most `len - 1` tokens are matched, so the last token is always computed. A node whose key
 * is taken already is not inserted again: the duplicate pages are freed.
 *
 * The faulty store (#37160, B8: external KV storage keyed by tokens only) ignores the salt, so a
 * request of tenant B matches a node tenant A inserted.
 *
 * The node is recorded on the request that inserted it (`cachedPrefix`) and the locked pages on
 * the request that uses them (`prefixPages`), so no request id is stored outside its own record.
 * Left out: eviction (nodes stay until the run ends; unlocked, they are evictable, which the pool
 * properties count as reclaimable), partial matches of a longer node, the decode-side cache.
 */
import type { ServingContext } from './context.ts';
import { freePages } from './kvPagePool.ts';
import { F } from './layout.ts';
import { prefixCacheOn, type Scenario } from './scenario.ts';
import { listAt, listClear, listItems, listLen, listPush } from './vectorOps.ts';

/** How the cache keys and matches requests, for one scenario under one variant. */
export interface PrefixCacheView {
  /** Tokens of the shared prefix request `i`'s current prompt starts with (0: none, or a placeholder). */
  readonly prefixTokens: (c: ServingContext, i: number) => number;
  /** Whether a node inserted by request `owner` is under the key request `i` looks up. */
  readonly sameKey: (i: number, owner: number) => boolean;
}

/**
 * The cache as `scenario` and the variant configure it: keys are (prefix group, tenant) unless
 * `saltIgnored`, then the prefix group alone. Undefined when no request names a prefix.
 */
export function prefixCacheView(
  scenario: Scenario,
  saltIgnored: boolean,
): PrefixCacheView | undefined {
  if (!prefixCacheOn(scenario)) return undefined;
  const specs = scenario.requests;
  const keyed = specs.map((a) =>
    specs.map(
      (b) =>
        a.prefix !== undefined &&
        a.prefix.group === b.prefix?.group &&
        (saltIgnored || a.tenant === b.tenant),
    ),
  );
  return {
    prefixTokens: (c, i) => {
      const spec = specs[i];
      const prefix = spec?.prefix;
      const len = c.words[c.layout.block(i) + F.prefillLen] as number;
      // A placeholder's prompt is `[0]`: it does not start with the prefix.
      return prefix && len >= prefix.len && len === spec.promptLen ? prefix.len : 0;
    },
    sameKey: (i, owner) => keyed[i]?.[owner] === true,
  };
}

/** Whether request `i` has inserted a cache node. */
function hasNode(c: ServingContext, i: number): boolean {
  return c.words[c.layout.block(i) + F.cachedLockRef] !== -1;
}

/** Pages of the cache, across all nodes. */
export function cachedPages(c: ServingContext): number[] {
  const L = c.layout;
  return L.requests.flatMap((_, i) => listItems(c.words, L.block(i), L.lists.cachedPages));
}

/** Number of pages in the cache (allocates nothing). */
export function cachedPageCount(c: ServingContext): number {
  const L = c.layout;
  let n = 0;
  for (let i = 0; i < L.requests.length; i++)
    n += listLen(c.words, L.block(i), L.lists.cachedPages);
  return n;
}

/** The index of the request whose cache node holds `page`, or -1. */
export function nodeOwnerOf(c: ServingContext, page: number): number {
  const L = c.layout;
  for (let i = 0; i < L.requests.length; i++) {
    const b = L.block(i);
    const n = listLen(c.words, b, L.lists.cachedPages);
    for (let k = 0; k < n; k++) if (listAt(c.words, b, L.lists.cachedPages, k) === page) return i;
  }
  return -1;
}

/** A cache hit: the node's owner and how many of its pages the request reuses. */
export interface PrefixMatch {
  readonly owner: number;
  readonly pages: number;
}

/**
 * What request `i`'s first forward would reuse from the cache: the node's owner and the number
 * of its pages, at most `prefillLen - 1` tokens' worth. Null once the request has computed
 * anything, or on a miss.
 */
export function matchPrefix(
  c: ServingContext,
  i: number,
  view: PrefixCacheView,
): PrefixMatch | null {
  const L = c.layout;
  const w = c.words;
  const b = L.block(i);
  if ((w[b + F.prefilled] as number) > 0 || view.prefixTokens(c, i) === 0) return null;
  for (let owner = 0; owner < L.requests.length; owner++) {
    if (!hasNode(c, owner) || !view.sameKey(i, owner)) continue;
    const held = listLen(w, L.block(owner), L.lists.cachedPages);
    const n = Math.min(held, Math.floor(((w[b + F.prefillLen] as number) - 1) / L.pageSize));
    return n > 0 ? { owner, pages: n } : null;
  }
  return null;
}

/** Request `i` locks the matched node (`inc_lock_ref`): its row starts with the node's pages. */
export function lockPrefix(c: ServingContext, i: number, match: PrefixMatch): void {
  const L = c.layout;
  const w = c.words;
  const ob = L.block(match.owner);
  if (!hasNode(c, match.owner)) return;
  w[ob + F.cachedLockRef] = (w[ob + F.cachedLockRef] as number) + 1;
  const b = L.block(i);
  listClear(w, b, L.lists.prefixPages);
  for (let k = 0; k < match.pages; k++) {
    listPush(w, b, L.lists.prefixPages, listAt(w, ob, L.lists.cachedPages, k));
  }
  w[b + F.prefilled] = match.pages * L.pageSize;
}

/**
 * Prefill releases request `i`'s KV with the cache on (`release_kv_cache`): the node it locked
 * is unlocked; if it matched nothing, computed its whole prefix and no node has its key yet,
 * its prefix pages become a node (owned by no request) and only the rest are freed; otherwise
 * all its own pages are freed.
 */
export function releaseIntoCache(c: ServingContext, i: number, view: PrefixCacheView): void {
  const L = c.layout;
  const w = c.words;
  const b = L.block(i);
  const locked = listLen(w, b, L.lists.prefixPages);
  if (locked > 0) {
    const owner = nodeOwnerOf(c, listAt(w, b, L.lists.prefixPages, 0));
    if (owner !== -1) {
      const ob = L.block(owner);
      w[ob + F.cachedLockRef] = (w[ob + F.cachedLockRef] as number) - 1;
    }
  }
  const tokens = view.prefixTokens(c, i);
  const keep = Math.floor(tokens / L.pageSize);
  let taken = false;
  for (let owner = 0; owner < L.requests.length; owner++) {
    if (hasNode(c, owner) && view.sameKey(i, owner)) taken = true;
  }
  const own = listItems(w, b, L.lists.prefillPages);
  const insert =
    locked === 0 &&
    keep > 0 &&
    (w[b + F.prefilled] as number) >= tokens &&
    own.length >= keep &&
    !taken;
  const nodePages = insert ? own.slice(0, keep) : [];
  listClear(w, b, L.lists.prefillPages);
  listClear(w, b, L.lists.prefixPages);
  if (insert) {
    listClear(w, b, L.lists.cachedPages);
    for (const p of nodePages) listPush(w, b, L.lists.cachedPages, p);
    w[b + F.cachedLockRef] = 0;
  }
  freePages(w, L.prefill, own.slice(nodePages.length));
  for (const p of nodePages) w[L.prefill.owner + p] = 0;
}
