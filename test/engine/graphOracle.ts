/**
 * The reference side of the agreement tests: `getAdjacencyMap` from `xstate/graph`, run with
 * the same events, keyed by a caller-chosen projection of each snapshot, plus a breadth-first
 * pass over its result for depths, terminal states and shortest violations.
 */
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { externalEventTypes } from '../../machines/events.ts';
import { explore } from '../../src/engine/index.ts';
import type { ExploreOptions, ExploreResult, StateProjection } from '../../src/engine/types.ts';

/** A projection that names a state (the agreement key). */
export type KeyOf = (s: { value: unknown; context: unknown; status?: unknown }) => string;

/** The reachable graph as `getAdjacencyMap` finds it. */
export interface OracleGraph {
  readonly keys: ReadonlySet<string>;
  /** Breadth-first depth of each key from the initial state. */
  readonly depth: ReadonlyMap<string, number>;
  /** Keys with no enabled event (every offered event left the snapshot unchanged). */
  readonly terminal: ReadonlySet<string>;
  readonly snapshots: ReadonlyMap<string, AnyMachineSnapshot>;
  /** (state, offered event) pairs that changed the snapshot. */
  readonly transitions: number;
}

/** Runs `getAdjacencyMap` on `machine` with `events` and BFS-annotates the result. */
export function oracle(
  machine: AnyStateMachine,
  events: readonly EventObject[] | ((s: AnyMachineSnapshot) => readonly EventObject[]) | undefined,
  keyOf: KeyOf,
): OracleGraph {
  const serializeState = (s: unknown) => keyOf(s as AnyMachineSnapshot);
  const adj =
    events === undefined
      ? getAdjacencyMap(machine, { serializeState })
      : getAdjacencyMap(machine, { events: events as never, serializeState });
  const snapshots = new Map<string, AnyMachineSnapshot>();
  const next = new Map<string, string[]>();
  let transitions = 0;
  type Vertex = {
    state: AnyMachineSnapshot;
    transitions: Record<string, { state: AnyMachineSnapshot }>;
  };
  for (const [key, vertex] of Object.entries(adj as unknown as Record<string, Vertex>)) {
    snapshots.set(key, vertex.state);
    const out: string[] = [];
    for (const t of Object.values(vertex.transitions)) {
      if (t.state === vertex.state) continue;
      transitions++;
      out.push(keyOf(t.state));
    }
    next.set(key, out);
  }
  const [first] = snapshots.keys();
  const depth = new Map<string, number>();
  if (first !== undefined) {
    depth.set(first, 0);
    const queue = [first];
    for (let i = 0; i < queue.length; i++) {
      const k = queue[i] as string;
      for (const n of next.get(k) ?? []) {
        if (depth.has(n)) continue;
        depth.set(n, (depth.get(k) ?? 0) + 1);
        queue.push(n);
      }
    }
  }
  const terminal = new Set([...next].filter(([, out]) => out.length === 0).map(([k]) => k));
  return { keys: new Set(snapshots.keys()), depth, terminal, snapshots, transitions };
}

/** The shortest depth of a state violating `holds` (only terminal states if `terminalOnly`). */
export function shortestViolation(
  graph: OracleGraph,
  holds: (s: StateProjection<never>) => boolean,
  terminalOnly = false,
): number | null {
  let best: number | null = null;
  for (const [key, snap] of graph.snapshots) {
    if (terminalOnly && !graph.terminal.has(key)) continue;
    if (holds(snap as unknown as StateProjection<never>)) continue;
    const d = graph.depth.get(key) ?? Number.POSITIVE_INFINITY;
    if (best === null || d < best) best = d;
  }
  return best;
}

/** `explore` plus the set of keys of every state it stored. */
export function exploreKeys<C, E extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<C, E>,
  keyOf: KeyOf,
): { result: ExploreResult<C, E>; keys: Set<string> } {
  const keys = new Set<string>();
  const result = explore(machine, { ...options, onState: (s) => keys.add(keyOf(s)) });
  return { result, keys };
}

/**
 * kvcheck's candidate events, written out here independently of `src/checker/serving/servingEvents.ts`
 * (which the reference adapter now uses): for each request, every external event type one of
 * its active nodes handles itself, read from XState's own snapshot.
 */
export function referenceCandidateEvents(
  snapshot: AnyMachineSnapshot,
  rids: readonly string[],
): EventObject[] {
  const external = new Set<string>(externalEventTypes);
  const byRid = new Map<string, Set<string>>();
  for (const node of snapshot._nodes) {
    const rid = node.path[0];
    if (rid === undefined) continue;
    const set = byRid.get(rid) ?? new Set<string>();
    byRid.set(rid, set);
    for (const t of node.ownEvents) if (external.has(t)) set.add(t);
  }
  return rids.flatMap((rid) =>
    externalEventTypes.filter((t) => byRid.get(rid)?.has(t)).map((type) => ({ type, rid })),
  );
}

/** Keys of `a` missing from `b`, at most `n` of them (for readable failures). */
export function missing(a: ReadonlySet<string>, b: ReadonlySet<string>, n = 3): string[] {
  return [...a].filter((k) => !b.has(k)).slice(0, n);
}
