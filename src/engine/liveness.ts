/**
 * Leads-to properties under weak fairness, checked on the explored state graph.
 *
 * A leads-to property `P ~> Q` is given by its obligations: each is a predicate `pending` that
 * holds where the obligation is open (P has held and Q has not yet). Under weak fairness a run
 * violates it when it reaches a cycle that stays in pending states forever and is fair: every
 * fairness group (a request region, say) that is enabled in every state of the cycle takes a
 * step in it. Such a run is a lasso: a prefix from the initial state, then the cycle.
 *
 * The check builds the graph while `explore` runs (its `onState` and `onTransition` callbacks),
 * then, per obligation, splits the pending states into strongly connected components (Tarjan,
 * iterative). A component with an internal edge is fair exactly when each group enabled in all
 * its states labels one of its internal edges: a cycle through the whole component is then fair,
 * and no cycle inside an unfair component can be (it sees no more edges, and no fewer enabled
 * groups). This is the justice check of explicit-state LTL checkers (SPIN's weak fairness, the
 * `-f` option; TLC's `WF_vars` on the behaviour graph).
 *
 * Only exhaustive runs decide liveness: a bounded run is `incomplete`. Symmetry reduction is not
 * used: a permutation would have to map fairness groups of one request onto another's, so the
 * quotient graph is not checked; the search runs unreduced. A deadlock (a state with no enabled
 * event) is not a lasso: the terminal properties report it.
 */
import type { AnyStateMachine, EventObject } from 'xstate';
import { EventTable } from './events.ts';
import { explore } from './explore.ts';
import { stepper } from './stepper.ts';
import type {
  ExploreBound,
  ExploreOptions,
  ExploreStats,
  SnapshotLike,
  StateProjection,
  TraceStep,
} from './types.ts';

/** A leads-to property: its obligations, each open (`pending`) in some states. */
export interface LeadsTo<TContext> {
  readonly obligations: readonly ((state: SnapshotLike<TContext>) => boolean)[];
}

/** Options of `checkLiveness`: `explore`'s, without symmetry, plus the properties and fairness. */
export interface LivenessOptions<TContext, TEvent extends EventObject>
  extends Omit<ExploreOptions<TContext, TEvent>, 'symmetry' | 'orbitSize'> {
  readonly leadsTo: Readonly<Record<string, LeadsTo<TContext>>>;
  /** The weak-fairness group of an event (the request region it moves), or null for none. */
  readonly fairness: (event: TEvent) => string | null;
}

/**
 * A violation of a leads-to property: `trace` is the prefix and then the cycle; the state after
 * the last step equals the state after step `loop` (the initial state when `loop` is 0), as in
 * ITF's `loop` field.
 */
export interface Lasso<TContext, TEvent extends EventObject> {
  readonly name: string;
  /** Which obligation (index into `LeadsTo.obligations`) the cycle leaves open. */
  readonly obligation: number;
  readonly initial: StateProjection<TContext>;
  readonly trace: readonly TraceStep<TContext, TEvent>[];
  readonly loop: number;
}

/**
 * One leads-to property's verdict on an exhaustive run: `cycles` counts the cycles (strongly
 * connected components with an edge) among its open obligations' states, fair or not. A pass
 * with no cycle holds because every run that leaves the obligation open ends; one with cycles
 * holds because none of them is fair.
 */
export interface LeadsToVerdict {
  readonly name: string;
  readonly violated: boolean;
  readonly cycles: number;
}

/** What `checkLiveness` returns. `ok` needs an exhaustive run. */
export interface LivenessResult<TContext, TEvent extends EventObject> {
  readonly status: 'ok' | 'violation' | 'incomplete';
  readonly stats: ExploreStats;
  /** Per property, in `leadsTo` order (empty when incomplete). */
  readonly properties: readonly LeadsToVerdict[];
  readonly lassos: readonly Lasso<TContext, TEvent>[];
  readonly bound?: ExploreBound;
}

/** The explored graph: edges as parallel arrays, events (`EventTable`) and groups interned. */
class Graph {
  from: number[] = [];
  to: number[] = [];
  event: number[] = [];
  group: number[] = [];
  readonly events = new EventTable();
  private readonly groupIds = new Map<string, number>();
  states = 0;
  private out: number[][] | null = null;

  add(from: number, event: EventObject, to: number, group: string | null): void {
    const e = this.events.intern(event);
    let g = -1;
    if (group !== null) {
      g = this.groupIds.get(group) ?? this.groupIds.size;
      this.groupIds.set(group, g);
    }
    this.from.push(from);
    this.to.push(to);
    this.event.push(e);
    this.group.push(g);
    if (to >= this.states) this.states = to + 1;
    if (from >= this.states) this.states = from + 1;
  }

  /** Outgoing edge indices per state. */
  outEdges(): number[][] {
    if (this.out) return this.out;
    const out: number[][] = Array.from({ length: this.states }, () => []);
    for (let k = 0; k < this.from.length; k++) (out[this.from[k] as number] as number[]).push(k);
    this.out = out;
    return out;
  }
}

/** Strongly connected components of the subgraph induced by `inside` (iterative Tarjan). */
function components(
  out: readonly number[][],
  to: readonly number[],
  inside: Uint8Array,
): number[][] {
  const n = inside.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const result: number[][] = [];
  let next = 0;
  for (let root = 0; root < n; root++) {
    if (!inside[root] || index[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    index[root] = low[root] = next++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1] as [number, number];
      const [v, k] = top;
      const edges = out[v] as number[];
      if (k < edges.length) {
        top[1] = k + 1;
        const w = to[edges[k] as number] as number;
        if (!inside[w]) continue;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const scc: number[] = [];
      let w: number;
      do {
        w = stack.pop() as number;
        onStack[w] = 0;
        scc.push(w);
      } while (w !== v);
      result.push(scc);
    }
  }
  return result;
}

/** A fair component's cycle plan: states to pass through and edges to take. */
interface FairCycle {
  readonly members: ReadonlySet<number>;
  /** Edges that must be taken (one per group enabled everywhere in the component). */
  readonly take: readonly number[];
  /** States that must be visited (one per group enabled somewhere but not everywhere). */
  readonly visit: readonly number[];
}

/** A component with the edges between its states (none: it is no cycle). */
interface Component {
  readonly members: ReadonlySet<number>;
  readonly states: readonly number[];
  readonly internal: readonly number[];
}

function componentOf(g: Graph, out: readonly number[][], states: readonly number[]): Component {
  const members = new Set(states);
  const internal: number[] = [];
  for (const v of states) {
    for (const k of out[v] as number[]) if (members.has(g.to[k] as number)) internal.push(k);
  }
  return { members, states, internal };
}

/** The plan of a fair cycle through component `c` (which has an internal edge), or null. */
function fairCycle(g: Graph, out: readonly number[][], c: Component): FairCycle | null {
  const { members, states: scc, internal } = c;
  // Per group: the states where it is enabled.
  const enabledIn = new Map<number, number>();
  for (const v of scc) {
    const seen = new Set<number>();
    for (const k of out[v] as number[]) {
      const grp = g.group[k] as number;
      if (grp === -1 || seen.has(grp)) continue;
      seen.add(grp);
      enabledIn.set(grp, (enabledIn.get(grp) ?? 0) + 1);
    }
  }
  const take: number[] = [];
  const visit: number[] = [];
  for (const [grp, count] of enabledIn) {
    if (count === scc.length) {
      const edge = internal.find((k) => g.group[k] === grp);
      if (edge === undefined) return null;
      take.push(edge);
    } else {
      const where = scc.find((v) => !(out[v] as number[]).some((k) => g.group[k] === grp));
      if (where !== undefined) visit.push(where);
    }
  }
  return { members, take, visit };
}

/** Edge indices of a shortest path from `from` to `target` (a state), within `allowed`. */
function pathTo(
  g: Graph,
  out: readonly number[][],
  from: number,
  target: (v: number) => boolean,
  allowed: (v: number) => boolean,
): number[] | null {
  if (target(from)) return [];
  const via = new Map<number, number>([[from, -1]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (const k of out[v] as number[]) {
      const w = g.to[k] as number;
      if (via.has(w) || !allowed(w)) continue;
      via.set(w, k);
      if (target(w)) {
        const path: number[] = [];
        for (let u = w; u !== from; u = g.from[via.get(u) as number] as number) {
          path.push(via.get(u) as number);
        }
        return path.reverse();
      }
      queue.push(w);
    }
  }
  return null;
}

/** The lasso through `cycle`: prefix edges from the initial state, then the closed walk. */
function lassoEdges(
  g: Graph,
  out: readonly number[][],
  cycle: FairCycle,
): { edges: number[]; loop: number } {
  const inCycle = (v: number) => cycle.members.has(v);
  const prefix = pathTo(g, out, 0, inCycle, () => true) ?? [];
  const entry = prefix.length === 0 ? 0 : (g.to[prefix[prefix.length - 1] as number] as number);
  const walk: number[] = [];
  let at = entry;
  const goTo = (v: number) => {
    const p = pathTo(g, out, at, (u) => u === v, inCycle) ?? [];
    walk.push(...p);
    at = v;
  };
  for (const k of cycle.take) {
    goTo(g.from[k] as number);
    walk.push(k);
    at = g.to[k] as number;
  }
  for (const v of cycle.visit) goTo(v);
  if (walk.length === 0) {
    const first = (out[at] as number[]).find((k) => inCycle(g.to[k] as number)) as number;
    walk.push(first);
    at = g.to[first] as number;
  }
  goTo(entry);
  return { edges: [...prefix, ...walk], loop: prefix.length };
}

/**
 * Explores `machine` exhaustively (unreduced) and checks each leads-to property of
 * `options.leadsTo` under weak fairness per `options.fairness` group. Returns every violated
 * property with one lasso (its first open obligation, in order), `incomplete` when a bound
 * stopped the search, and `ok` otherwise. The lasso's states are replayed with `stepper`, so the
 * trace is a run of the machine.
 */
export function checkLiveness<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: LivenessOptions<TContext, TEvent>,
): LivenessResult<TContext, TEvent> {
  const { leadsTo, fairness, ...rest } = options;
  const names = Object.keys(leadsTo);
  const obligations = names.flatMap((name, p) =>
    (leadsTo[name] as LeadsTo<TContext>).obligations.map((pending, o) => ({ p, o, pending })),
  );
  const open: Uint8Array[] = obligations.map(() => new Uint8Array(0));
  const mark = (i: number, index: number) => {
    let bits = open[i] as Uint8Array;
    if (index >= bits.length) {
      const grown = new Uint8Array(Math.max(64, bits.length * 2, index + 1));
      grown.set(bits);
      bits = grown;
      open[i] = bits;
    }
    bits[index] = 1;
  };
  const g = new Graph();
  const result = explore<TContext, TEvent>(machine, {
    ...rest,
    onState: (state, index, depth) => {
      for (let i = 0; i < obligations.length; i++) {
        if ((obligations[i] as (typeof obligations)[number]).pending(state)) mark(i, index);
      }
      rest.onState?.(state, index, depth);
    },
    onTransition: (from, event, to) => {
      g.add(from, event, to, fairness(event));
      rest.onTransition?.(from, event, to);
    },
  });
  if (result.status === 'incomplete') {
    return {
      status: 'incomplete',
      stats: result.stats,
      properties: [],
      lassos: [],
      ...(result.bound ? { bound: result.bound } : {}),
    };
  }
  g.states = Math.max(g.states, result.stats.states);
  const out = g.outEdges();
  const lassos: Lasso<TContext, TEvent>[] = [];
  const cycles = names.map(() => 0);
  for (let i = 0; i < obligations.length; i++) {
    const { p, o } = obligations[i] as (typeof obligations)[number];
    const inside = new Uint8Array(g.states);
    inside.set((open[i] as Uint8Array).subarray(0, g.states));
    const plans = components(out, g.to, inside)
      .map((scc) => componentOf(g, out, scc))
      .filter((c) => c.internal.length > 0)
      .map((c) => fairCycle(g, out, c));
    cycles[p] = (cycles[p] as number) + plans.length;
    const cycle = plans.find((c) => c !== null);
    if (!cycle || lassos.some((l) => l.name === names[p])) continue;
    const { edges, loop } = lassoEdges(g, out, cycle);
    lassos.push({
      name: names[p] as string,
      obligation: o,
      loop,
      ...replay(machine, rest, g, edges),
    });
  }
  const properties = names.map((name, p) => ({
    name,
    violated: lassos.some((l) => l.name === name),
    cycles: cycles[p] as number,
  }));
  return {
    status: lassos.length > 0 ? 'violation' : 'ok',
    stats: result.stats,
    properties,
    lassos,
  };
}

/** The states along `edges` from the initial state, replayed. */
function replay<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: Pick<ExploreOptions<TContext, TEvent>, 'events' | 'input'>,
  g: Graph,
  edges: readonly number[],
): { initial: StateProjection<TContext>; trace: TraceStep<TContext, TEvent>[] } {
  const run = stepper<TContext, TEvent>(machine, {
    ...(options.events ? { events: options.events } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  let state = run.initial;
  const trace: TraceStep<TContext, TEvent>[] = [];
  for (const k of edges) {
    const event = g.events.at(g.event[k] as number) as TEvent;
    const next = run.step(state, event);
    if (next === null) throw new Error(`lasso replay: ${JSON.stringify(event)} is not enabled`);
    trace.push({ event, state: { value: next.value, context: next.context } });
    state = next;
  }
  return { initial: { value: run.initial.value, context: run.initial.context }, trace };
}
