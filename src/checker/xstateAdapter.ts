/**
 * Where the reference engine meets XState: it reads a snapshot's plain parts and calls
 * `getAdjacencyMap` from `xstate/graph`, typed for kvcheck. No `any`: XState's generic snapshot
 * and graph types are crossed once each, through `unknown`, into the small shapes below.
 */
import type { AnyStateMachine } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { ActiveNodes } from './serving/servingEvents.ts';

/** An XState snapshot of the composed machine, as far as kvcheck reads it. */
export type Snapshot = ActiveNodes & { readonly context: ServingState['context'] };

/** Plain state of a snapshot: the state value is one record of regions per request. */
export function toServingState(snapshot: Snapshot): ServingState {
  return { value: snapshot.value as unknown as ServingState['value'], context: snapshot.context };
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

type RawAdjacency = Record<
  string,
  { state: Snapshot; transitions: Record<string, { event: ExternalEvent; state: Snapshot }> }
>;

/** `getAdjacencyMap` from `xstate/graph`, typed for kvcheck. Vertices come in discovery order. */
export function adjacencyOf(
  machine: AnyStateMachine,
  options: AdjacencyOptions,
): Map<string, AdjacencyVertex> {
  const traverse = getAdjacencyMap as unknown as (
    m: AnyStateMachine,
    o: AdjacencyOptions,
  ) => RawAdjacency;
  const adj = traverse(machine, options);
  const out = new Map<string, AdjacencyVertex>();
  for (const [key, v] of Object.entries(adj)) {
    out.set(key, { state: v.state, transitions: Object.values(v.transitions) });
  }
  return out;
}
