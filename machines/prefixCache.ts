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
import type { RequestState, ServingContext } from './context.ts';
import { freePages } from './kvPagePool.ts';
import { prefixCacheOn, type RequestId, requestSpec, type Scenario } from './scenario.ts';

/** How the cache keys and matches requests, for one scenario under one variant. */
export interface PrefixCacheView {
  /** Tokens of the shared prefix `rid`'s current prompt starts with (0: none, or a placeholder). */
  readonly prefixTokens: (ctx: ServingContext, rid: RequestId) => number;
  /** Whether a node inserted by `owner` is under the key `rid` looks up (group, and salt). */
  readonly sameKey: (rid: RequestId, owner: RequestId) => boolean;
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
  const spec = (rid: RequestId) => requestSpec(scenario, rid);
  return {
    prefixTokens: (ctx, rid) => {
      const prefix = spec(rid).prefix;
      const r = ctx.requests[rid];
      // A placeholder's prompt is `[0]`: it does not start with the prefix.
      return prefix && r && r.prefillLen >= prefix.len && r.prefillLen === spec(rid).promptLen
        ? prefix.len
        : 0;
    },
    sameKey: (rid, owner) => {
      const a = spec(rid);
      const b = spec(owner);
      return (
        a.prefix !== undefined &&
        a.prefix.group === b.prefix?.group &&
        (saltIgnored || a.tenant === b.tenant)
      );
    },
  };
}

/** Pages of the cache, across all nodes. */
export function cachedPages(ctx: ServingContext): number[] {
  return Object.values(ctx.requests).flatMap((r) => r.cachedPrefix?.pages ?? []);
}

/** The request whose cache node holds `page`, or null. */
export function nodeOwnerOf(ctx: ServingContext, page: number): RequestId | null {
  const found = Object.entries(ctx.requests).find(([, r]) => r.cachedPrefix?.pages.includes(page));
  return found ? found[0] : null;
}

/**
 * What `rid`'s first forward would reuse from the cache: the node's owner and the pages, at most
 * `prefillLen - 1` tokens' worth. Null once the request has computed anything, or on a miss.
 */
export function matchPrefix(
  ctx: ServingContext,
  rid: RequestId,
  view: PrefixCacheView,
): { owner: RequestId; pages: number[] } | null {
  const r = ctx.requests[rid];
  if (!r || r.prefilled > 0 || view.prefixTokens(ctx, rid) === 0) return null;
  const ps = ctx.prefillPool.pageSize;
  for (const [owner, q] of Object.entries(ctx.requests)) {
    if (!q.cachedPrefix || !view.sameKey(rid, owner)) continue;
    const n = Math.min(q.cachedPrefix.pages.length, Math.floor((r.prefillLen - 1) / ps));
    return n > 0 ? { owner, pages: q.cachedPrefix.pages.slice(0, n) } : null;
  }
  return null;
}

/** `rid` locks the matched node (`inc_lock_ref`): its row starts with the node's pages. */
export function lockPrefix(
  ctx: ServingContext,
  rid: RequestId,
  match: { owner: RequestId; pages: number[] },
): ServingContext {
  const ps = ctx.prefillPool.pageSize;
  const requests = { ...ctx.requests };
  const owner = requests[match.owner];
  const r = requests[rid];
  if (!owner?.cachedPrefix || !r) return ctx;
  requests[match.owner] = {
    ...owner,
    cachedPrefix: { ...owner.cachedPrefix, lockRef: owner.cachedPrefix.lockRef + 1 },
  };
  requests[rid] = {
    ...(requests[rid] as RequestState),
    prefixPages: match.pages,
    prefilled: match.pages.length * ps,
  };
  return { ...ctx, requests };
}

/**
 * Prefill releases `rid`'s KV with the cache on (`release_kv_cache`): the node it locked is
 * unlocked; if it matched nothing, computed its whole prefix and no node has its key yet, its
 * prefix pages become a node (owned by no request) and only the rest are freed; otherwise all
 * its own pages are freed.
 */
export function releaseIntoCache(
  ctx: ServingContext,
  rid: RequestId,
  view: PrefixCacheView,
): ServingContext {
  const r = ctx.requests[rid];
  if (!r) return ctx;
  const requests = { ...ctx.requests };
  const locked = r.prefixPages ?? [];
  const first = locked[0];
  if (first !== undefined) {
    const owner = nodeOwnerOf(ctx, first);
    const node = owner === null ? undefined : requests[owner];
    if (owner !== null && node?.cachedPrefix) {
      requests[owner] = {
        ...node,
        cachedPrefix: { ...node.cachedPrefix, lockRef: node.cachedPrefix.lockRef - 1 },
      };
    }
  }
  const ps = ctx.prefillPool.pageSize;
  const tokens = view.prefixTokens(ctx, rid);
  const keep = Math.floor(tokens / ps);
  const taken = Object.entries(ctx.requests).some(
    ([owner, q]) => q.cachedPrefix && view.sameKey(rid, owner),
  );
  const insert =
    locked.length === 0 &&
    keep > 0 &&
    r.prefilled >= tokens &&
    r.prefillPages.length >= keep &&
    !taken;
  const nodePages = insert ? r.prefillPages.slice(0, keep) : [];
  const self = requests[rid] as RequestState;
  requests[rid] = {
    ...self,
    prefillPages: [],
    prefixPages: [],
    ...(insert ? { cachedPrefix: { pages: nodePages, lockRef: 0 } } : {}),
  };
  const pool = freePages(ctx.prefillPool, r.prefillPages.slice(nodePages.length));
  const owner = pool.owner.map((o, p) => (nodePages.includes(p) ? null : o));
  return { ...ctx, requests, prefillPool: { ...pool, owner } };
}
