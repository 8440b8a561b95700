/**
 * Which events are offered in a state, exactly as `getAdjacencyMap` offers them for a machine
 * (`createDefaultMachineOptions`): for each event type an active node handles itself, the user's
 * events of that type, or a bare `{ type }` when the user listed none of that type. The result
 * is cached per configuration for as long as the user returns the same list object.
 *
 * Also interns events for trace reconstruction: one small integer per distinct event (by JSON).
 */
import type { EventObject } from 'xstate';
import type { ConfigView } from './configView.ts';
import type { EventSource, SnapshotLike } from './types.ts';

/** The offered events of a state whose configuration is `view`. */
export function offeredEvents<TContext, TEvent extends EventObject>(
  source: EventSource<TContext, TEvent>,
  view: ConfigView,
  snapshot: SnapshotLike<TContext>,
): readonly EventObject[] {
  const user: readonly EventObject[] = typeof source === 'function' ? source(snapshot) : source;
  if (view.lastEvents === user) return view.lastOffered;
  const byType = new Map<string, EventObject[]>();
  for (const e of user) {
    const list = byType.get(e.type);
    if (list) list.push(e);
    else byType.set(e.type, [e]);
  }
  const out: EventObject[] = [];
  for (const type of view.ownTypes) {
    const matching = byType.get(type);
    if (matching) out.push(...matching);
    else out.push({ type });
  }
  view.lastEvents = user;
  view.lastOffered = out;
  return out;
}

/** Distinct events by JSON, each with a dense index. */
export class EventTable {
  private readonly byKey = new Map<string, number>();
  private readonly list: EventObject[] = [];

  /** The index of `event`, added on first sight. */
  intern(event: EventObject): number {
    const key = JSON.stringify(event);
    const found = this.byKey.get(key);
    if (found !== undefined) return found;
    this.list.push(event);
    this.byKey.set(key, this.list.length - 1);
    return this.list.length - 1;
  }

  /** The event with index `i`. */
  at(i: number): EventObject {
    const e = this.list[i];
    if (!e) throw new Error(`no event with index ${i}`);
    return e;
  }
}
