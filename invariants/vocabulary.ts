/**
 * Helper predicates the properties are built from, in the domain's words: where a request's
 * regions are, which pages it holds, who wrote what it read.
 */
import type { ServingContext } from '../machines/context.ts';
import type { RequestRegion } from '../machines/regionIds.ts';
import type { NodeRole, RequestId, TenantId } from '../machines/scenario.ts';
import { type PoolView, type RequestView, requestViews } from '../machines/servingView.ts';

/** The plain projection of a snapshot that every property reads. */
export interface ServingState {
  /** Per request, per region, the XState state value (`'idle'`, `{ admitted: 'waiting' }`, …). */
  readonly value: Readonly<Record<RequestId, Readonly<Record<string, unknown>>>>;
  readonly context: ServingContext;
}

/**
 * Dot paths of the object state values seen so far. The engine's snapshots share one value
 * object per configuration, so a run computes each path once.
 */
const pathsOfValues = new WeakMap<object, string>();

/** Dot path of a state value: `{ admitted: 'waiting' }` → `admitted.waiting`. */
export function valuePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return '';
  const known = pathsOfValues.get(value);
  if (known !== undefined) return known;
  const [key, inner] = Object.entries(value)[0] ?? ['', ''];
  const rest = valuePath(inner);
  const path = rest ? `${key}.${rest}` : key;
  pathsOfValues.set(value, path);
  return path;
}

/** Where `rid`'s `region` is, as a dot path (`placeholder.waiting`, `done.finished`). */
export function regionPath(s: ServingState, rid: RequestId, region: RequestRegion): string {
  return valuePath(s.value[rid]?.[region]);
}

/**
 * Whether the dot path of `value` is `path` (or, unless `exact`, a descendant of it), read off
 * the value without building the path: allocation-free for the shapes XState produces. A
 * value with an empty segment falls back to comparing `valuePath`, where an empty rest drops
 * its dot.
 */
function pathMatches(value: unknown, path: string, exact: boolean): boolean {
  let v = value;
  let pos = 0;
  let first = true;
  for (;;) {
    let seg: string;
    let inner: unknown;
    if (typeof v === 'string') {
      seg = v;
      inner = undefined;
    } else if (v !== null && typeof v === 'object') {
      const key = firstKey(v);
      if (key === undefined) return pathMatchesSlow(value, path, exact);
      seg = key;
      const next = (v as Readonly<Record<string, unknown>>)[key];
      // A rest that renders as '' (a leaf, or '') ends the path at `key`.
      inner =
        (typeof next === 'string' && next !== '') || (next !== null && typeof next === 'object')
          ? next
          : undefined;
    } else {
      return pathMatchesSlow(value, path, exact);
    }
    if (seg === '') return pathMatchesSlow(value, path, exact);
    if (!first) {
      // The value's path goes on past `path`: a descendant.
      if (pos === path.length) return !exact;
      if (path.charCodeAt(pos) !== 46) return false;
      pos++;
    }
    const rest = path.length - pos;
    // By character: `startsWith(seg, pos)` costs a builtin call a segment.
    const shared = Math.min(seg.length, rest);
    for (let k = 0; k < shared; k++)
      if (seg.charCodeAt(k) !== path.charCodeAt(pos + k)) return false;
    // The value's path is longer than `path`: a descendant if `path` ends where a dot follows.
    if (seg.length > rest) return !exact && seg.charCodeAt(rest) === 46;
    pos += seg.length;
    first = false;
    if (inner === undefined) return pos === path.length;
    v = inner;
  }
}

/** The first own enumerable key of `o` (`Object.entries` order), without listing them. */
function firstKey(o: object): string | undefined {
  for (const key in o) if (Object.hasOwn(o, key)) return key;
  return undefined;
}

function pathMatchesSlow(value: unknown, path: string, exact: boolean): boolean {
  const at = valuePath(value);
  return at === path || (!exact && at.startsWith(`${path}.`));
}

/** Whether `rid`'s `region` is in `path` or one of its descendants. Allocates nothing. */
export function regionIn(
  s: ServingState,
  rid: RequestId,
  region: RequestRegion,
  path: string,
): boolean {
  return pathMatches(s.value[rid]?.[region], path, false);
}

/** Whether `rid`'s `region` is exactly at `path` (`regionPath(...) === path`). Allocates nothing. */
export function regionAt(
  s: ServingState,
  rid: RequestId,
  region: RequestRegion,
  path: string,
): boolean {
  return pathMatches(s.value[rid]?.[region], path, true);
}

/**
 * Whether prefill created a KV sender for `rid`'s bootstrap room: the room left `unopened`, and
 * is not merely holding decode's destination for a sender that has not come (`awaitingSender`),
 * nor failed by decode's abort before any sender (`abandoned`).
 */
export function senderCreated(s: ServingState, rid: RequestId): boolean {
  return (
    !regionAt(s, rid, 'transfer', 'unopened') &&
    !regionAt(s, rid, 'transfer', 'awaitingSender') &&
    !regionAt(s, rid, 'transfer', 'abandoned')
  );
}

/** Request ids in scenario order. */
export function requestIds(s: ServingState): readonly RequestId[] {
  return s.context.layout.requests;
}

/**
 * Each request as a view of `s` (id in `r.id`), in scenario order. The views are flyweights
 * rebound to `s` (see `servingView.ts`): read them before asking for another state's.
 */
export function requestsOf(s: ServingState): readonly RequestView[] {
  return requestViews(s.context);
}

/** The tenant that sent `rid` (a writer id of another scenario maps to undefined). */
export function tenantOf(s: ServingState, rid: RequestId): TenantId | undefined {
  const L = s.context.layout;
  const i = L.requests.indexOf(rid);
  return i === -1 ? undefined : L.tenants[i];
}

/** The tenant of the request with writer code `code` (undefined for 0, nobody). */
export function tenantOfCode(s: ServingState, code: number): TenantId | undefined {
  return code === 0 ? undefined : s.context.layout.tenants[code - 1];
}

/** `rid (tenant T)`, for messages. */
export function who(s: ServingState, rid: RequestId): string {
  return `${rid} (tenant ${tenantOf(s, rid) ?? '?'})`;
}

/**
 * Whether `test` holds for some request of `s`, in scenario order. Pass a function defined once
 * (at module level), not a fresh closure, to keep a per-state check allocation-free.
 */
export function someRequest(
  s: ServingState,
  test: (r: RequestView, s: ServingState) => boolean,
): boolean {
  const rs = requestViews(s.context);
  for (let i = 0; i < rs.length; i++) if (test(rs[i] as RequestView, s)) return true;
  return false;
}

/** Whether either side rejected the request at intake. */
export function wasRejected(r: RequestView): boolean {
  return r.rejectedOnPrefill || r.rejectedOnDecode;
}

/** The sides that rejected the request at intake, in words: `prefill`, `decode` or both. */
export function rejectedBy(r: RequestView): string {
  return [r.rejectedOnPrefill ? 'prefill' : '', r.rejectedOnDecode ? 'decode' : '']
    .filter(Boolean)
    .join(' and ');
}

/** Whether the request has finished on both sides and the router has replied. */
export function isSettled(s: ServingState, rid: RequestId): boolean {
  return (
    regionIn(s, rid, 'prefill', 'done') &&
    regionIn(s, rid, 'decode', 'done') &&
    regionIn(s, rid, 'router', 'replied')
  );
}

/** Whether decode has committed the request and may read its KV (it is in `running`). */
export function isDecoding(s: ServingState, rid: RequestId): boolean {
  return (
    regionAt(s, rid, 'decode', 'admitted.running') ||
    regionAt(s, rid, 'decode', 'placeholder.running')
  );
}

/** The number of pages of `node`'s pool held by live requests' rows (a repeat counts twice). */
export function heldCount(s: ServingState, node: NodeRole): number {
  let n = 0;
  for (const r of requestViews(s.context)) n += r.pageCount(node);
  return n;
}

/**
 * The code (index + 1) of the first request of `rs` (a state's views) whose row on `node` holds
 * `page`, 0 for none.
 */
export function holderOf(rs: readonly RequestView[], node: NodeRole, page: number): number {
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i] as RequestView;
    if (r.holds(node, page)) return r.code;
  }
  return 0;
}

/**
 * The writer code (0: never written) of sequence position `pos` in the request's row on
 * `pool`'s node, or -1 past the row's pages (the slot `slotOf` finds).
 */
export function writerAtPosition(pool: PoolView, r: RequestView, pos: number): number {
  const ps = pool.layout.pageSize;
  const k = Math.floor(pos / ps);
  if (k >= r.pageCount(pool.node)) return -1;
  return pool.writer(r.pageAt(pool.node, k) * ps + (pos % ps));
}

/** Whether some slot of `page` in `pool` was last written by a tenant other than `tenant`. */
export function pageHoldsOtherTenant(pool: PoolView, page: number, tenant: TenantId): boolean {
  if (page < 0 || page >= pool.capacity) return false;
  const ps = pool.layout.pageSize;
  const tenants = pool.layout.tenants;
  for (let slot = page * ps; slot < (page + 1) * ps; slot++) {
    const w = pool.writer(slot);
    if (w !== 0 && tenants[w - 1] !== tenant) return true;
  }
  return false;
}

/** Whether some slot of `page` in `pool` was ever written. */
export function pageWritten(pool: PoolView, page: number): boolean {
  if (page < 0 || page >= pool.capacity) return false;
  const ps = pool.layout.pageSize;
  for (let slot = page * ps; slot < (page + 1) * ps; slot++) {
    if (pool.writer(slot) !== 0) return true;
  }
  return false;
}
