/**
 * The explored state space as a graph, for drawing it (`kvcheck state-space`) and for tests
 * that walk it: every distinct state by index, its enabled transitions, and the graph
 * algorithms the drawing needs (terminal vertices, violating vertices, a shortest path). It is
 * recorded through the engine contract's callbacks, so either engine can build it.
 */
import type { Property } from '../../invariants/property.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import {
  type BreadthFirstTree,
  breadthFirstTree,
  type ExploreBound,
  type ExploreOptions,
} from '../engine/index.ts';
import { exploreWith, machineFor, searchBounds } from './check.ts';
import { type CheckOptions, resolveCheckOptions } from './checkOptions.ts';
import { plainState } from './scenarioResult.ts';
import { servingEvents } from './serving/servingEvents.ts';

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
  /**
   * Whether each vertex is known to be expanded. After a complete search every vertex is; after
   * a bounded one only those with a recorded transition are, so no vertex is taken for terminal
   * because a bound stopped the search before it.
   */
  readonly expanded: readonly boolean[];
  /** Set when a bound stopped the search. */
  readonly bound?: ExploreBound;
}

/**
 * Explores `scenario` under `variant` with the engine and bounds of `options` (defaults as
 * `check`'s; no symmetry and breadth first, since a drawing needs every concrete state) and
 * returns the graph of distinct states and enabled transitions.
 */
export function stateGraphOf(
  scenario: Scenario,
  variant: Variant,
  options: Pick<CheckOptions, 'engine' | 'maxStates' | 'maxSeconds' | 'machine'> = {},
): StateGraph {
  const resolved = resolveCheckOptions(options);
  const states: ServingState[] = [];
  const edges: Edge[][] = [];
  const exploreOptions: ExploreOptions<ServingContext, ExternalEvent> = {
    events: servingEvents(scenario.requests.map((r) => r.id)),
    ...searchBounds(resolved),
    onState: (s, index) => {
      states[index] = plainState(s);
      edges[index] ??= [];
    },
    onTransition: (from, event, to) => {
      edges[from] ??= [];
      edges[from].push({ event, to });
    },
  };
  const result = exploreWith(
    resolved.engine,
    machineFor(scenario, variant, options),
    exploreOptions,
  );
  // A bounded search may announce a transition to a state it then did not store.
  const out = states.map((_, v) => (edges[v] ?? []).filter((e) => e.to < states.length));
  const expanded = out.map((e) => result.bound === undefined || e.length > 0);
  return result.bound
    ? { states, edges: out, expanded, bound: result.bound }
    : { states, edges: out, expanded };
}

/** Whether vertex `v` is terminal: expanded, with no enabled transition. */
export function isTerminal(graph: StateGraph, v: number): boolean {
  return graph.expanded[v] === true && (graph.edges[v]?.length ?? 0) === 0;
}

/** Vertices where any of `props` fails; terminal properties only on terminal vertices. */
export function violatingVertices(graph: StateGraph, props: readonly Property[]): Set<number> {
  const out = new Set<number>();
  graph.states.forEach((s, v) => {
    if (props.some((p) => (p.kind === 'state' || isTerminal(graph, v)) && !p(s))) out.add(v);
  });
  return out;
}

/** Breadth-first distances and parents from vertex 0: `parent[v]` is the edge that reached v. */
export function shortestPathTree(graph: StateGraph): BreadthFirstTree<ExternalEvent> {
  return breadthFirstTree(graph.edges);
}

/** The breadth-first shortest vertex path from 0 to the first vertex of `targets` in BFS order. */
export function shortestPathToAny(graph: StateGraph, targets: ReadonlySet<number>): number[] {
  const tree = shortestPathTree(graph);
  const target = tree.order.find((v) => targets.has(v));
  if (target === undefined) return [];
  const path: number[] = [];
  for (let v: number | undefined = target; v !== undefined; v = tree.parent[v]?.from) path.push(v);
  return path.reverse();
}
