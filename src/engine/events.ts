/**
 * Which events are offered in a state, exactly as `getAdjacencyMap` offers them for a machine
 * (`resolveTraversalOptions`): the caller's events, as given (an array, or a function of the
 * state), enabled or not; without `events`, one bare `{ type }` per event type that an active
 * state node handles itself (XState's `getAllOwnEventDescriptors`), cached per configuration.
 *
 * Also interns events for trace reconstruction: one small integer per distinct event (by JSON).
 */
import type { EventObject } from 'xstate';
import type { ConfigView } from './configView.ts';
import type { EventSource, SnapshotLike } from './types.ts';

/** The offered events of a state whose configuration is `view`. */
export function offeredEvents<TContext, TEvent extends EventObject>(
  source: EventSource<TContext, TEvent> | undefined,
  view: ConfigView,
  snapshot: SnapshotLike<TContext>,
): readonly EventObject[] {
  if (typeof source === 'function') return source(snapshot);
  if (source !== undefined) return source;
  let bare = view.bareEvents;
  if (bare === null) {
    bare = view.ownTypes.map((type) => ({ type }));
    view.bareEvents = bare;
  }
  return bare;
}

/** Distinct events by JSON, each with a dense index. */
export class EventTable {
  private readonly byKey = new Map<string, number>();
  private readonly byObject = new WeakMap<EventObject, number>();
  private readonly list: EventObject[] = [];

  /** The index of `event`, added on first sight (looked up by identity first, then by JSON). */
  intern(event: EventObject): number {
    const known = this.byObject.get(event);
    if (known !== undefined) return known;
    const key = JSON.stringify(event);
    let found = this.byKey.get(key);
    if (found === undefined) {
      found = this.list.length;
      this.list.push(event);
      this.byKey.set(key, found);
    }
    this.byObject.set(event, found);
    return found;
  }

  /** Number of distinct events interned. */
  get size(): number {
    return this.list.length;
  }

  /** The event with index `i`. */
  at(i: number): EventObject {
    const e = this.list[i];
    if (!e) throw new Error(`no event with index ${i}`);
    return e;
  }
}
