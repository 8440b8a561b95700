/**
 * Naming shared by the region factories: every request's regions live under
 * `#serving.<rid>.<region>`, and cross-region guards test membership with `stateIn`.
 */
import { and, not, or, stateIn } from 'xstate';
import type { InternalEvent } from './events.ts';
import type { RequestId } from './scenario.ts';

/** The composed machine's id; state-node ids start with it. */
export const servingMachineId = 'serving';

/** The four regions of one request, in document order. */
export const requestRegions = ['router', 'prefill', 'transfer', 'decode'] as const;

/** One of a request's regions. */
export type RequestRegion = (typeof requestRegions)[number];

/** The state-node id of `path` (dot-separated) inside a request's region. */
export function stateId(rid: RequestId, region: RequestRegion, path: string): string {
  return `#${servingMachineId}.${rid}.${region}.${path}`;
}

/** A guard that holds while the request's `region` is in `path`. */
export function inState(rid: RequestId, region: RequestRegion, path: string) {
  return stateIn(stateId(rid, region, path));
}

/** The guard every transition of a request's regions carries: the event is for this request. */
export function forRequest(rid: RequestId) {
  return { type: 'isFor', params: { rid } } as const;
}

/**
 * A guard that holds when the router refuses request `rid` at dispatch: its client-supplied
 * bootstrap room is held by another request in flight, and the router checks (#40185).
 */
export function roomRefused(rid: RequestId) {
  return and([not('duplicateRoomAccepted'), { type: 'roomHeld', params: { rid } }]);
}

/** The negation of `roomRefused`, written to read as what lets the request through. */
export function roomAccepted(rid: RequestId) {
  return or(['duplicateRoomAccepted', not({ type: 'roomHeld', params: { rid } })]);
}

/** The action that raises `event` for the other regions of request `rid` within the same step. */
export function notify(rid: RequestId, event: InternalEvent['type']) {
  return { type: 'notify', params: { rid, event } } as const;
}
