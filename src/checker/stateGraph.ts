/**
 * Exploration with the reference engine: `getAdjacencyMap` from `xstate/graph`, offered only the
 * events the active states handle, keyed by a compact state key, and stopped by a state or time
 * bound. The result is a plain state graph with every vertex's successors by index.
 */

import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import type { Bound } from './outcome.ts';
import { servingEvents } from './serving/servingEvents.ts';
import { stateKey } from './stateKey.ts';
import { adjacencyOf, type Snapshot, toServingState } from './xstateAdapter.ts';

/** Bounds on one exploration. */
export interface ExploreLimits {
  /** Stop expanding once this many distinct states are known. @default 100000 */
  readonly maxStates?: number;
  /** Stop expanding after this many seconds. @default Infinity */
  readonly maxSeconds?: number;
}

/** An edge of the state graph. */
export interface Edge {
  readonly event: ExternalEvent;
  readonly to: number;
}

/** The explored state space. Vertex 0 is the initial state. */
export interface StateGraph {
  readonly states: readonly ServingState[];
  /** Enabled transitions out of each vertex (empty for unexpanded vertices). */
  readonly edges: readonly (readonly Edge[])[];
  /** Whether each vertex was expanded; false only for vertices a bound left unexplored. */
  readonly expanded: readonly boolean[];
  /** Set when a bound stopped the search. */
  readonly bound?: Bound;
}

/** Default state bound of the reference engine. */
export const defaultMaxStates = 100_000;

/** Explores every reachable state of `scenario` under `variant`, within `limits`. */
export function exploreScenario(
  scenario: Scenario,
  variant: Variant,
  limits: ExploreLimits = {},
): StateGraph {
  return exploreMachine(createServingMachine(scenario, variant), scenario, limits);
}

/**
 * Explores a composed machine built for `scenario` (possibly with implementations replaced
 * through `machine.provide`, as the seeded-bug tests do), within `limits`.
 */
export function exploreMachine(
  machine: ServingMachine,
  scenario: Scenario,
  limits: ExploreLimits = {},
): StateGraph {
  const rids = scenario.requests.map((r) => r.id);
  const maxStates = limits.maxStates ?? defaultMaxStates;
  const deadline = performance.now() + (limits.maxSeconds ?? Number.POSITIVE_INFINITY) * 1000;
  const keys = new WeakMap<Snapshot, string>();
  const keyOf = (snap: Snapshot): string => {
    let k = keys.get(snap);
    if (k === undefined) {
      k = stateKey(toServingState(snap));
      keys.set(snap, k);
    }
    return k;
  };
  const unexpanded = new Set<string>();
  let seen = 0;
  let bound: Bound | undefined;
  const adjacency = adjacencyOf(machine, {
    events: servingEvents(rids),
    serializeState: keyOf,
    stopWhen: (snap) => {
      seen++;
      if (!bound && seen > maxStates) bound = { reason: 'maxStates', limit: maxStates };
      if (!bound && performance.now() > deadline) {
        bound = { reason: 'maxSeconds', limit: limits.maxSeconds ?? 0 };
      }
      if (bound) unexpanded.add(keyOf(snap));
      return bound !== undefined;
    },
  });
  const index = new Map<string, number>();
  for (const key of adjacency.keys()) index.set(key, index.size);
  const states: ServingState[] = [];
  const edges: Edge[][] = [];
  const expanded: boolean[] = [];
  for (const [key, vertex] of adjacency) {
    states.push(toServingState(vertex.state));
    expanded.push(!unexpanded.has(key));
    const out: Edge[] = [];
    for (const t of vertex.transitions) {
      if (t.state === vertex.state) continue;
      const to = index.get(keyOf(t.state));
      if (to !== undefined) out.push({ event: t.event, to });
    }
    edges.push(out);
  }
  return bound ? { states, edges, expanded, bound } : { states, edges, expanded };
}

/** Breadth-first distances and parents from vertex 0: `parent[v]` is the edge that reached v. */
export function shortestPathTree(graph: StateGraph): {
  readonly depth: readonly number[];
  readonly parent: readonly ({ readonly from: number; readonly event: ExternalEvent } | null)[];
  readonly order: readonly number[];
} {
  const n = graph.states.length;
  const depth = new Array<number>(n).fill(-1);
  const parent = new Array<{ from: number; event: ExternalEvent } | null>(n).fill(null);
  const order: number[] = [];
  if (n === 0) return { depth, parent, order };
  depth[0] = 0;
  order.push(0);
  for (let head = 0; head < order.length; head++) {
    const v = order[head] as number;
    for (const e of graph.edges[v] ?? []) {
      if (depth[e.to] !== -1) continue;
      depth[e.to] = (depth[v] as number) + 1;
      parent[e.to] = { from: v, event: e.event };
      order.push(e.to);
    }
  }
  return { depth, parent, order };
}
