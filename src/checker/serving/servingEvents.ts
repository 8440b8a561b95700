/**
 * The event function for kvcheck's composed serving machine, used by both engines: for each
 * request in scenario order, every external event type that one of that request's active state
 * nodes handles itself, addressed to the request. It reads only the active nodes
 * (`activeNodesOf`), so its result is cached per state value object: the engine hands out one
 * frozen value object per configuration, so each configuration is computed once. A request's
 * events depend on its own region's state alone, and the engine's values share their regions'
 * objects (one per region state), so a new configuration is put together from its regions'
 * cached events, and only a region state not seen before is computed from the nodes.
 * (Snapshots from XState itself each have their own value object and are not cached.)
 * Given an `EventFilter` (`unreachableEvents.ts`), it leaves out the events no transition can
 * take: a filter judges a request's events by that request's active nodes alone, so the cache
 * by region state holds.
 */
import { type ExternalEvent, externalEventTypes } from '../../../machines/events.ts';
import type { RequestId } from '../../../machines/scenario.ts';
import { type ActiveNode, type AnySnapshot, activeNodesOf } from '../../engine/index.ts';
import type { EventFilter } from './unreachableEvents.ts';

const external = new Set<string>(externalEventTypes);

/** What is offered: one event object per (request, type), less what a filter leaves out. */
interface Offer {
  /** What leaves out the events no transition can take where they are handled; null: none. */
  readonly filter: EventFilter | null;
  /** The event of `type` for request `rid`, shared by every configuration that offers it. */
  readonly eventOf: (type: ExternalEvent['type'], rid: RequestId) => ExternalEvent;
}

/**
 * The events of request `rid`: every external type its active nodes handle and the filter does
 * not leave out, in type order.
 */
function eventsOf(nodes: readonly ActiveNode[], rid: RequestId, offer: Offer): ExternalEvent[] {
  const filter = offer.filter;
  const types = new Set<string>();
  // The request's active node paths, for the filter alone.
  const active = new Set<string>();
  for (const node of nodes) {
    if (node.path[0] !== rid) continue;
    if (filter !== null) active.add(node.path.join('.'));
    for (const t of node.ownEvents) if (external.has(t)) types.add(t);
  }
  return externalEventTypes
    .filter((type) => types.has(type) && (filter === null || filter.mayTake(type, rid, active)))
    .map((type) => offer.eventOf(type, rid));
}

function compute(
  nodes: readonly ActiveNode[],
  rids: readonly RequestId[],
  offer: Offer,
): ExternalEvent[] {
  return rids.flatMap((rid) => eventsOf(nodes, rid, offer));
}

/**
 * `compute` for an engine value (frozen, and so are its regions): request `rids[i]`'s events
 * are looked up by its region's value (a string or a frozen object) in `byRegion[i]`, and
 * computed from the nodes where new.
 */
function composed(
  snapshot: AnySnapshot,
  value: Readonly<Record<string, unknown>>,
  rids: readonly RequestId[],
  offer: Offer,
  byRegion: readonly Map<unknown, readonly ExternalEvent[]>[],
): ExternalEvent[] {
  const out: ExternalEvent[] = [];
  for (let i = 0; i < rids.length; i++) {
    const rid = rids[i] as RequestId;
    const seen = byRegion[i] as Map<unknown, readonly ExternalEvent[]>;
    const region = value[rid];
    let events = seen.get(region);
    if (events === undefined) {
      events = eventsOf(activeNodesOf(snapshot), rid, offer);
      // Only a string or a frozen object is known not to change under its events.
      if (typeof region !== 'object' || region === null || Object.isFrozen(region)) {
        seen.set(region, events);
      }
    }
    for (const e of events) out.push(e);
  }
  return out;
}

/**
 * The offered events of the serving machine with requests `rids`, as a function of a snapshot
 * of either engine (usable with `explore` and with `getAdjacencyMap`). With `filter`, the
 * events it says no transition can take are not offered (`eventFilter`: a check's fast engine
 * is offered so), which changes no state, transition or verdict.
 */
export function servingEvents(
  rids: readonly RequestId[],
  filter: EventFilter | null = null,
): (snapshot: AnySnapshot) => readonly ExternalEvent[] {
  // A plain map: the engine's view cache holds its values as long as a search runs anyway, and
  // a weak map costs the collector on every collection.
  const cache = new Map<object, readonly ExternalEvent[]>();
  // Shared event objects: the engine interns events by identity before it falls back to their
  // JSON, and a configuration's list then costs one array, not one object per event.
  const shared = new Map<string, ExternalEvent>();
  const eventOf: Offer['eventOf'] = (type, rid) => {
    const key = `${rid}\u0000${type}`;
    const known = shared.get(key);
    if (known !== undefined) return known;
    const event: ExternalEvent = Object.freeze({ type, rid });
    shared.set(key, event);
    return event;
  };
  const offer: Offer = { filter, eventOf };
  const byRegion = rids.map(() => new Map<unknown, readonly ExternalEvent[]>());
  return (snapshot) => {
    const key: unknown = snapshot.value;
    // Only the engine's values are shared per configuration (and frozen); an XState snapshot's
    // value is its own, so caching it would only fill the map.
    if (typeof key !== 'object' || key === null || !Object.isFrozen(key)) {
      return compute(activeNodesOf(snapshot), rids, offer);
    }
    let events = cache.get(key);
    if (!events) {
      const value = key as Readonly<Record<string, unknown>>;
      events = composed(snapshot, value, rids, offer, byRegion);
      cache.set(key, events);
    }
    return events;
  };
}
