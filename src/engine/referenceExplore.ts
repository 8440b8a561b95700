/**
 * `exploreReference`: the second implementation of the `explore` contract, over `xstate/graph`'s
 * `getAdjacencyMap`. It is slow and keeps every snapshot, but it is XState's own traversal, so
 * it is the oracle the fast engine is checked against. Same options (those it honours are listed
 * on the function), same `ExploreResult`; verdicts, counts and shortest traces agree with
 * `explore` wherever the fast engine accepts the machine.
 */
import type { AnyStateMachine, ContextFrom, EventFromLogic, EventObject } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { refuseUnknown } from './knownOptions.ts';
import type {
  ExploreBound,
  ExploreOptions,
  ExploreResult,
  Invariant,
  SnapshotLike,
  StateProjection,
  TraceStep,
  Violation,
} from './types.ts';

/** One vertex of the adjacency map, with the snapshots typed as the engine's `SnapshotLike`. */
interface Vertex<C, E extends EventObject> {
  readonly state: SnapshotLike<C>;
  readonly transitions: Readonly<Record<string, { event: E; state: SnapshotLike<C> }>>;
}

/** The traversal options kvcheck passes to `getAdjacencyMap`, typed over `SnapshotLike`. */
interface AdjacencyOptions<C, E extends EventObject> {
  readonly events?: (snapshot: SnapshotLike<C>) => readonly E[];
  readonly serializeState: (snapshot: SnapshotLike<C>) => string;
  readonly stopWhen: (snapshot: SnapshotLike<C>) => boolean;
  readonly input?: unknown;
}

/** `getAdjacencyMap`, typed: XState's generic snapshot type is crossed once, here. */
function adjacencyMap<C, E extends EventObject>(
  machine: AnyStateMachine,
  options: AdjacencyOptions<C, E>,
): Record<string, Vertex<C, E>> {
  const traverse = getAdjacencyMap as unknown as (
    m: AnyStateMachine,
    o: AdjacencyOptions<C, E>,
  ) => Record<string, Vertex<C, E>>;
  return traverse(machine, options);
}

/** The explored graph by index: vertex 0 is the initial state. */
interface Graph<C, E extends EventObject> {
  readonly states: readonly SnapshotLike<C>[];
  readonly edges: readonly (readonly { readonly event: E; readonly to: number }[])[];
  readonly expanded: readonly boolean[];
}

function projection<C>(s: SnapshotLike<C>): StateProjection<C> {
  return { value: s.value, context: s.context };
}

/** A breadth-first tree over a graph given by out-edges per vertex, from vertex 0. */
export interface BreadthFirstTree<E> {
  /** Distance from vertex 0; -1 where unreachable. */
  readonly depth: readonly number[];
  /** The edge that first reached each vertex; null for vertex 0 and unreachable ones. */
  readonly parent: readonly ({ readonly from: number; readonly event: E } | null)[];
  /** Reachable vertices in breadth-first order, vertex 0 first. */
  readonly order: readonly number[];
}

/**
 * Breadth-first order, depths and parent edges from vertex 0 over `edges` (out-edges per
 * vertex, in the order they are to be tried): the shortest paths of an unweighted graph.
 */
export function breadthFirstTree<E>(
  edges: readonly (readonly { readonly event: E; readonly to: number }[])[],
): BreadthFirstTree<E> {
  const n = edges.length;
  const depth = new Array<number>(n).fill(-1);
  const parent = new Array<{ from: number; event: E } | null>(n).fill(null);
  const order: number[] = [];
  if (n > 0) {
    depth[0] = 0;
    order.push(0);
  }
  for (let head = 0; head < order.length; head++) {
    const v = order[head] as number;
    for (const e of edges[v] ?? []) {
      if (depth[e.to] !== -1) continue;
      depth[e.to] = (depth[v] as number) + 1;
      parent[e.to] = { from: v, event: e.event };
      order.push(e.to);
    }
  }
  return { depth, parent, order };
}

/**
 * Explores `machine` with `getAdjacencyMap` and returns what `explore` returns. State identity
 * is `JSON.stringify({ value, context })`, `getAdjacencyMap`'s own default key. Honours
 * `events`, `invariants`, `terminalInvariants`, `maxStates`, `maxSeconds`, `input`, `onState`
 * (in breadth-first order, after the traversal), `onTransition` and `onMove`; ignores the fast engine's
 * `symmetry`, `orbitSize`, `exact`, `order`, `maxMemory`, `signal`, `onProgress` and
 * `stopAtFirstViolation`. A bound marks the states found beyond it unexpanded, so terminal
 * invariants are not checked on them. `bytesPerState` is 0: snapshots are kept whole.
 */
export function exploreReference<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options?: ExploreOptions<ContextFrom<TMachine>, EventFromLogic<TMachine>>,
): ExploreResult<ContextFrom<TMachine>, EventFromLogic<TMachine>>;
/** `exploreReference` with the context and event types given explicitly. */
export function exploreReference<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options?: ExploreOptions<TContext, TEvent>,
): ExploreResult<TContext, TEvent>;
export function exploreReference<C, E extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<C, E> = {},
): ExploreResult<C, E> {
  refuseUnknown(options);
  const started = performance.now();
  const graph = traverse<C, E>(machine, options);
  const tree = breadthFirstTree(graph.graph.edges);
  const states = graph.graph.states;
  tree.order.forEach((v) => {
    options.onState?.(states[v] as SnapshotLike<C>, v, tree.depth[v] ?? 0);
  });
  if (options.onTransition || options.onMove) {
    graph.graph.edges.forEach((out, from) => {
      for (const e of out) {
        options.onTransition?.(from, e.event, e.to);
        const a = states[from];
        const b = states[e.to];
        if (a && b) options.onMove?.(a as SnapshotLike<C>, e.event, b as SnapshotLike<C>);
      }
    });
  }
  const isTerminal = (v: number) =>
    graph.graph.expanded[v] === true && (graph.graph.edges[v]?.length ?? 0) === 0;
  const traceTo = (target: number): TraceStep<C, E>[] => {
    const path: TraceStep<C, E>[] = [];
    for (let v = target; v !== 0; ) {
      const edge = tree.parent[v];
      if (!edge) break;
      path.push({ event: edge.event, state: projection(states[v] as SnapshotLike<C>) });
      v = edge.from;
    }
    return path.reverse();
  };
  const initial = projection(states[0] as SnapshotLike<C>);
  const first = (inv: Invariant<C>, terminal: boolean) =>
    tree.order.find((v) => (!terminal || isTerminal(v)) && !inv(states[v] as SnapshotLike<C>));
  const violations: Violation<C, E>[] = [];
  for (const [spec, terminal] of [
    [options.invariants, false],
    [options.terminalInvariants, true],
  ] as const) {
    for (const [name, inv] of Object.entries(spec ?? {})) {
      const at = first(inv, terminal);
      if (at !== undefined) violations.push({ name, initial, trace: traceTo(at) });
    }
  }
  const transitions = graph.graph.edges.reduce((n, out) => n + out.length, 0);
  const depth = tree.order.reduce((d, v) => Math.max(d, tree.depth[v] ?? 0), 0);
  const status = violations.length > 0 ? 'violation' : graph.bound ? 'incomplete' : 'ok';
  const result: ExploreResult<C, E> = {
    status,
    stats: {
      states: states.length,
      transitions,
      depth,
      ms: Math.round(performance.now() - started),
      bytesPerState: 0,
    },
    violations,
  };
  return graph.bound ? { ...result, bound: graph.bound } : result;
}

/** Runs `getAdjacencyMap` under the bounds and indexes its vertices in discovery order. */
function traverse<C, E extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<C, E>,
): { graph: Graph<C, E>; bound?: ExploreBound } {
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  const deadline = performance.now() + (options.maxSeconds ?? Number.POSITIVE_INFINITY) * 1000;
  const keys = new WeakMap<object, string>();
  const keyOf = (s: SnapshotLike<C>): string => {
    let k = keys.get(s);
    if (k === undefined) {
      k = JSON.stringify({ value: s.value, context: s.context });
      keys.set(s, k);
    }
    return k;
  };
  const source = options.events;
  const events =
    source === undefined
      ? undefined
      : typeof source === 'function'
        ? source
        : () => source as readonly E[];
  const unexpanded = new Set<string>();
  let seen = 0;
  let bound: ExploreBound | undefined;
  const adjacency = adjacencyMap<C, E>(machine, {
    // Without `events`, `getAdjacencyMap`'s own default: a bare event per handled type.
    ...(events ? { events } : {}),
    serializeState: keyOf,
    stopWhen: (s) => {
      seen++;
      if (!bound && seen > maxStates) bound = { reason: 'maxStates', limit: maxStates };
      if (!bound && performance.now() > deadline) {
        bound = { reason: 'maxSeconds', limit: options.maxSeconds ?? 0 };
      }
      if (bound) unexpanded.add(keyOf(s));
      return bound !== undefined;
    },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  const index = new Map<string, number>();
  for (const key of Object.keys(adjacency)) index.set(key, index.size);
  const states: SnapshotLike<C>[] = [];
  const edges: { event: E; to: number }[][] = [];
  const expanded: boolean[] = [];
  for (const [key, vertex] of Object.entries(adjacency)) {
    states.push(vertex.state);
    expanded.push(!unexpanded.has(key));
    const out: { event: E; to: number }[] = [];
    for (const t of Object.values(vertex.transitions)) {
      if (t.state === vertex.state) continue;
      const to = index.get(keyOf(t.state));
      if (to !== undefined) out.push({ event: t.event, to });
    }
    edges.push(out);
  }
  const graph = { states, edges, expanded };
  return bound ? { graph, bound } : { graph };
}
