/**
 * The one place where kvcheck touches XState's generic internals. Everything else sees plain
 * data: `ServingState` (state value + context), events as `{ type, rid }`, and state graphs.
 *
 * `any` is allowed in this file only: XState's snapshot and state-node types carry a dozen
 * generic parameters that add nothing to a traversal that only reads `_nodes`, `value` and
 * `context`.
 */
import type { AnyStateMachine, StateNode } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { ServingState } from '../../invariants/vocabulary.ts';
import { type ExternalEvent, externalEventTypes } from '../../machines/events.ts';
import type { RequestId } from '../../machines/scenario.ts';

/** An opaque XState snapshot of the composed machine. */
export type Snapshot = { readonly __snapshot: unique symbol };

const external = new Set<string>(externalEventTypes);

/** Plain state of a snapshot. */
export function toServingState(snapshot: Snapshot): ServingState {
  const s = snapshot as any;
  return { value: s.value, context: s.context };
}

/** Event types each state node handles itself, cached per node. */
const ownExternalEvents = new WeakMap<object, string[]>();
function eventsOf(node: any): string[] {
  let cached = ownExternalEvents.get(node);
  if (!cached) {
    cached = (node.ownEvents as string[]).filter((t) => external.has(t));
    ownExternalEvents.set(node, cached);
  }
  return cached;
}

/**
 * The events worth offering in `snapshot`: for each request, every external event type that one
 * of its active state nodes handles. Disabled ones (guard false) are still offered; they leave
 * the snapshot unchanged and are not counted as transitions.
 */
export function candidateEvents(snapshot: Snapshot, rids: readonly RequestId[]): ExternalEvent[] {
  const byRid = new Map<string, Set<string>>();
  for (const node of (snapshot as any)._nodes as any[]) {
    const rid = node.path[0] as string | undefined;
    if (rid === undefined) continue;
    let set = byRid.get(rid);
    if (!set) {
      set = new Set();
      byRid.set(rid, set);
    }
    for (const t of eventsOf(node)) set.add(t);
  }
  const out: ExternalEvent[] = [];
  for (const rid of rids) {
    const types = byRid.get(rid);
    if (!types) continue;
    for (const type of externalEventTypes) {
      if (types.has(type)) out.push({ type, rid });
    }
  }
  return out;
}

/** Options for `adjacencyOf`, a typed subset of `xstate/graph`'s traversal options. */
export interface AdjacencyOptions {
  readonly events: (snapshot: Snapshot) => readonly ExternalEvent[];
  readonly serializeState: (snapshot: Snapshot) => string;
  readonly stopWhen: (snapshot: Snapshot) => boolean;
}

/** One vertex of the adjacency map: its snapshot and, per offered event, the next snapshot. */
export interface AdjacencyVertex {
  readonly state: Snapshot;
  readonly transitions: readonly { readonly event: ExternalEvent; readonly state: Snapshot }[];
}

/** `getAdjacencyMap` from `xstate/graph`, typed for kvcheck. Vertices come in discovery order. */
export function adjacencyOf(
  machine: AnyStateMachine,
  options: AdjacencyOptions,
): Map<string, AdjacencyVertex> {
  const adj = getAdjacencyMap(machine, {
    events: options.events as any,
    serializeState: options.serializeState as any,
    stopWhen: options.stopWhen as any,
  }) as any;
  const out = new Map<string, AdjacencyVertex>();
  for (const key of Object.keys(adj)) {
    const v = adj[key];
    out.set(key, {
      state: v.state,
      transitions: Object.values(v.transitions as Record<string, any>).map((t) => ({
        event: t.event,
        state: t.state,
      })),
    });
  }
  return out;
}

/** A machine's root state node, typed loosely for structural walks. */
export function rootNodeOf(machine: AnyStateMachine): StateNode<any, any> {
  return machine.root;
}
