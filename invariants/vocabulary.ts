/**
 * Helper predicates the properties are built from, in the domain's words: where a request's
 * regions are, which pages it holds, who wrote what it read.
 */
import type { RequestState, ServingContext } from '../machines/context.ts';
import type { RequestRegion } from '../machines/regionIds.ts';
import type { RequestId, TenantId } from '../machines/scenario.ts';

/** The plain projection of a snapshot that every property reads. */
export interface ServingState {
  /** Per request, per region, the XState state value (`'idle'`, `{ admitted: 'waiting' }`, …). */
  readonly value: Readonly<Record<RequestId, Readonly<Record<string, unknown>>>>;
  readonly context: ServingContext;
}

/** Dot path of a state value: `{ admitted: 'waiting' }` → `admitted.waiting`. */
export function valuePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const [key, inner] = Object.entries(value)[0] ?? ['', ''];
    const rest = valuePath(inner);
    return rest ? `${key}.${rest}` : key;
  }
  return '';
}

/** Where `rid`'s `region` is, as a dot path (`placeholder.waiting`, `done.finished`). */
export function regionPath(s: ServingState, rid: RequestId, region: RequestRegion): string {
  return valuePath(s.value[rid]?.[region]);
}

/** Whether `rid`'s `region` is in `path` or one of its descendants. */
export function regionIn(
  s: ServingState,
  rid: RequestId,
  region: RequestRegion,
  path: string,
): boolean {
  const at = regionPath(s, rid, region);
  return at === path || at.startsWith(`${path}.`);
}

/** Request ids in scenario order. */
export function requestIds(s: ServingState): RequestId[] {
  return Object.keys(s.context.requests);
}

/** Each request with its id and data. */
export function requestEntries(s: ServingState): [RequestId, RequestState][] {
  return Object.entries(s.context.requests);
}

/** The tenant that sent `rid` (a writer id of another scenario maps to undefined). */
export function tenantOf(s: ServingState, rid: RequestId): TenantId | undefined {
  return s.context.tenants[rid];
}

/** `rid (tenant T)`, for messages. */
export function who(s: ServingState, rid: RequestId): string {
  return `${rid} (tenant ${tenantOf(s, rid) ?? '?'})`;
}

/** Whether either side rejected the request at intake. */
export function wasRejected(r: RequestState): boolean {
  return r.rejectedOnPrefill || r.rejectedOnDecode;
}

/** The sides that rejected the request at intake, in words: `prefill`, `decode` or both. */
export function rejectedBy(r: RequestState): string {
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
  const at = regionPath(s, rid, 'decode');
  return at === 'admitted.running' || at === 'placeholder.running';
}

/** A page and the request that holds it. */
export interface HeldPage {
  readonly page: number;
  readonly rid: RequestId;
}

/**
 * `heldPages` per request table: contexts are never mutated and a step that touches no request
 * keeps the table, so several properties of one state, and states that share a table, build the
 * lists once.
 */
const heldByTable = new WeakMap<object, Record<'prefill' | 'decode', readonly HeldPage[]>>();

/** Pages of a node's pool that live requests hold, with the holder, in request order. */
export function heldPages(s: ServingState, node: 'prefill' | 'decode'): readonly HeldPage[] {
  const table = s.context.requests;
  let held = heldByTable.get(table);
  if (held === undefined) {
    const entries = Object.entries(table);
    held = {
      prefill: entries.flatMap(([rid, r]) => r.prefillPages.map((page) => ({ page, rid }))),
      decode: entries.flatMap(([rid, r]) => r.decodePages.map((page) => ({ page, rid }))),
    };
    heldByTable.set(table, held);
  }
  return held[node];
}
