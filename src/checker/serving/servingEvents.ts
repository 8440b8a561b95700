/**
 * The event function for kvcheck's composed serving machine, used by both engines: for each
 * request in scenario order, every external event type that one of that request's active state
 * nodes handles itself, addressed to the request. It reads only the active nodes
 * (`activeNodesOf`), so its result is cached per state value object: the engine hands out one
 * frozen value object per configuration, so each configuration is computed once. (Snapshots
 * from XState itself each have their own value object and are not cached.)
 */
import { type ExternalEvent, externalEventTypes } from '../../../machines/events.ts';
import type { RequestId } from '../../../machines/scenario.ts';
import { type ActiveNode, type AnySnapshot, activeNodesOf } from '../../engine/index.ts';

const external = new Set<string>(externalEventTypes);

/** One event object per (request, type), shared by every configuration that offers it. */
type EventOf = (type: ExternalEvent['type'], rid: RequestId) => ExternalEvent;

function compute(
  nodes: readonly ActiveNode[],
  rids: readonly RequestId[],
  eventOf: EventOf,
): ExternalEvent[] {
  const byRid = new Map<string, Set<string>>();
  for (const node of nodes) {
    const rid = node.path[0];
    if (rid === undefined) continue;
    let set = byRid.get(rid);
    if (!set) {
      set = new Set();
      byRid.set(rid, set);
    }
    for (const t of node.ownEvents) if (external.has(t)) set.add(t);
  }
  const out: ExternalEvent[] = [];
  for (const rid of rids) {
    const types = byRid.get(rid);
    if (!types) continue;
    for (const type of externalEventTypes) if (types.has(type)) out.push(eventOf(type, rid));
  }
  return out;
}

/**
 * The offered events of the serving machine with requests `rids`, as a function of a snapshot
 * of either engine (usable with `explore` and with `getAdjacencyMap`).
 */
export function servingEvents(
  rids: readonly RequestId[],
): (snapshot: AnySnapshot) => readonly ExternalEvent[] {
  const cache = new WeakMap<object, readonly ExternalEvent[]>();
  // Shared event objects: the engine interns events by identity before it falls back to their
  // JSON, and a configuration's list then costs one array, not one object per event.
  const shared = new Map<string, ExternalEvent>();
  const eventOf: EventOf = (type, rid) => {
    const key = `${rid}\u0000${type}`;
    const known = shared.get(key);
    if (known !== undefined) return known;
    const event: ExternalEvent = Object.freeze({ type, rid });
    shared.set(key, event);
    return event;
  };
  return (snapshot) => {
    const key: unknown = snapshot.value;
    // Only the engine's values are shared per configuration (and frozen); an XState snapshot's
    // value is its own, so caching it would only fill the map.
    if (typeof key !== 'object' || key === null || !Object.isFrozen(key)) {
      return compute(activeNodesOf(snapshot), rids, eventOf);
    }
    let events = cache.get(key);
    if (!events) {
      events = compute(activeNodesOf(snapshot), rids, eventOf);
      cache.set(key, events);
    }
    return events;
  };
}
