/**
 * The public vocabulary of the fast engine: what `explore` takes and what it returns. Everything
 * here is plain data or plain functions; no XState generics leak out except `EventObject` and
 * `StateValue`, which are plain JSON shapes.
 */
import type { AnyStateMachine, EventObject, StateValue } from 'xstate';

/** A machine snapshot's plain projection: what invariants and traces see. */
export interface StateProjection<TContext> {
  readonly value: StateValue;
  readonly context: TContext;
}

/**
 * One active state node, as event functions read it: the two public `StateNode` members an
 * event function needs to tell which events a part of the machine handles. XState's own state
 * nodes have this shape, so `activeNodesOf` gives the same data for both engines' snapshots.
 */
export interface ActiveNode {
  /** Keys from the root's child down to this node (XState's `StateNode.path`); `[]` for the root. */
  readonly path: readonly string[];
  /** Event types with a non-inert transition from this node itself (`StateNode.ownEvents`). */
  readonly ownEvents: readonly string[];
}

/**
 * What `events` functions, invariants and `onState` receive: the projection plus a few snapshot
 * members. `activeNodes` are the nodes of the active configuration, in document order (read a
 * snapshot of either engine with `activeNodesOf`); `status` is `'done'` once the root has
 * reached a final configuration (XState still takes the first microstep of an event in a done
 * snapshot, and so does this engine). Do not mutate anything reachable from it.
 */
export interface SnapshotLike<TContext> extends StateProjection<TContext> {
  readonly status: 'active' | 'done';
  readonly activeNodes: readonly ActiveNode[];
  /** `snapshot.matches` semantics (XState's `matchesState`). */
  matches(value: StateValue): boolean;
  /** Whether some active state node carries `tag`. */
  hasTag(tag: string): boolean;
}

/** Events to offer: a fixed list, or a function of the current state (as `getAdjacencyMap`). */
export type EventSource<TContext, TEvent extends EventObject> =
  | readonly TEvent[]
  | ((state: SnapshotLike<TContext>) => readonly TEvent[]);

/** A predicate that must hold; false marks a violation. */
export type Invariant<TContext> = (state: StateProjection<TContext>) => boolean;

/** What the progress callback receives, about once a second (`progressIntervalMs`). */
export interface Progress {
  /** Distinct states stored so far. */
  readonly states: number;
  /** Distinct states per second since the start. */
  readonly statesPerSecond: number;
  /** States discovered but not yet expanded. */
  readonly queue: number;
  /** V8 heap in use (`process.memoryUsage().heapUsed`). */
  readonly heapBytes: number;
  /**
   * Array buffers allocated (`process.memoryUsage().arrayBuffers`): the fingerprint table, the
   * packed queue of states, the worker threads' chunks, garbage not yet collected.
   */
  readonly bufferBytes: number;
  /** Threads expanding states: 1, or the worker threads' count once they have taken over. */
  readonly threads: number;
}

/**
 * Everything an invariant reads of a state of a vector context, whatever the state: the indices
 * of the words of `context.words`, and the state nodes (paths from the root, keys joined by
 * `.`, as `'a1.decode'`) whose subtree's configuration it reads. The invariant must be a function
 * of these and of the context's static fields alone; a read left out can hide a violation.
 */
export interface InvariantReads {
  readonly words: readonly number[];
  readonly states: readonly string[];
}

/** Options of `explore`; all optional. */
export interface ExploreOptions<TContext, TEvent extends EventObject> {
  /**
   * Events to offer in each state, as `getAdjacencyMap` takes them: every event of the list (or
   * of the function's result for that state) is tried in every state, in order. Without it, one
   * bare `{ type }` per event type that an active state node handles itself (non-inert
   * transitions), as `getAdjacencyMap`'s default. @default the handled types, bare
   */
  readonly events?: EventSource<TContext, TEvent>;
  /** Checked on every reachable state. @default {} */
  readonly invariants?: Readonly<Record<string, Invariant<TContext>>>;
  /** Checked only on states where no offered event is enabled (see `transitions`). @default {} */
  readonly terminalInvariants?: Readonly<Record<string, Invariant<TContext>>>;
  /**
   * What invariants read, by invariant name (see `InvariantReads`): with a vector context and
   * fingerprints (not `exact`), a new state is checked against a named invariant only when it
   * differs from the state it was reached from in a word or a state node the invariant reads;
   * otherwise the invariant holds there as it held in that state. An invariant not named is
   * checked on every state. Only the first 32 invariants take part; terminal invariants are
   * always checked. @default {}
   */
  readonly reads?: Readonly<Record<string, InvariantReads>>;
  /** The search stops (status `incomplete`) when it would store more states. @default Infinity */
  readonly maxStates?: number;
  /** The search stops (status `incomplete`) after this many seconds. @default Infinity */
  readonly maxSeconds?: number;
  /**
   * The search stops (status `incomplete`) once the V8 heap in use and the array buffers
   * allocated (`heapUsed + arrayBuffers` of `process.memoryUsage()`: the whole process's
   * objects, the store's table, the packed queue, garbage not yet collected) exceed this many
   * MiB. Checked with `maxSeconds`, every 128 expanded states, starting after the first.
   * @default Infinity
   */
  readonly maxMemory?: number;
  /**
   * The search stops (status `incomplete`, bound `interrupted`) once this signal is aborted.
   * Checked with `maxSeconds`, every 128 expanded states. `explore` runs without yielding, so
   * only its own callbacks can abort it mid-search; `exploreAsync` yields between time slices,
   * so a timer or a signal handler can. @default none
   */
  readonly signal?: AbortSignal;
  /**
   * Store full keys (configuration key and context JSON, or a vector context's words) in a
   * `Map` instead of 64-bit fingerprints: no collision risk, but two bytes per key character
   * (about 4 KB per state for a 3-request kvcheck scenario) instead of about 30 bytes.
   * @default false
   */
  readonly exact?: boolean;
  /**
   * A canonicaliser: maps a state to the representative of its symmetry class, which must be a
   * member of the class (an image of the state under the symmetry, so a state the machine can
   * reach), equal for equivalent states. The engine stores and expands representatives only,
   * and checks invariants on them, so every invariant must be invariant under the symmetry.
   * Traces are still concrete runs (see `trace.ts`). Return the argument itself when it is
   * its own representative. The argument is valid only during the call. Another state's
   * context may reuse its words array from one call to the next: the engine reads it before
   * the next call and copies what it keeps. @default none (no reduction)
   */
  readonly symmetry?: (state: SnapshotLike<TContext>) => StateProjection<TContext>;
  /**
   * With `symmetry`: the number of distinct states in the symmetry class of a representative
   * (its orbit), at least 1. Summed over the stored representatives it gives
   * `stats.unreducedStates`, the size of the space they stand for. @default none
   */
  readonly orbitSize?: (representative: SnapshotLike<TContext>) => number;
  /** Input for the machine's context factory, as `initialTransition(machine, input)`. */
  readonly input?: unknown;
  /**
   * Partial-order reduction: for a state and its offered events, candidate ample sets, each a
   * subset of `offered`, in the order to try them (an empty list: expand fully). The engine
   * expands the enabled events of the first candidate that has one, alone, unless one of their
   * successors (under `symmetry`, its representative) is already stored, and otherwise every
   * offered event. So the engine guarantees that an ample set is never empty when an event is
   * enabled (C0) and the cycle proviso (C3: every cycle of the reduced graph passes a fully
   * expanded state, since a cycle closes on a state stored before its predecessor was
   * expanded). The function guarantees the rest, for every candidate, in the state it is
   * given: no run of events outside the candidate, from that state, contains an event that
   * depends on one of the candidate's (C1, including events that could enable or disable
   * them), and every enabled event of the candidate is invisible to every invariant and to
   * every observer that must see the unreduced graph (C2). Not with `workers` or
   * `onTransition`. Traces are then shortest in the reduced graph only: see
   * `ExploreResult.violations`. @default none
   */
  readonly ample?: (
    state: SnapshotLike<TContext>,
    offered: readonly TEvent[],
  ) => readonly (readonly TEvent[])[];
  /**
   * Stop as soon as some invariant is violated: its trace is still a shortest one, the other
   * invariants are left unchecked and the stats are partial. @default false
   */
  readonly stopAtFirstViolation?: boolean;
  /**
   * The search order. `breadth`: a level at a time, so the first violation of each invariant is
   * found at minimal depth; the queue holds a whole level of states (contexts included), which
   * bounds the spaces it can finish. `depth`: last discovered, first expanded; it holds only a
   * path and its unexpanded siblings, so memory is the visited store's and the rate stays flat on
   * spaces of tens of millions of states. Its traces are discovery paths, so when it finds
   * violations `explore` searches again breadth first, for those invariants only and under the
   * same bounds, stopping once each has a shortest trace; a trace that pass cannot improve
   * within the bounds is kept and marked `shortest: false`. Both orders find the same states
   * and the same verdicts. @default 'breadth'
   */
  readonly order?: 'breadth' | 'depth';
  /**
   * With a vector context: how many queued states (a breadth-first level, or the depth-first
   * stack) are held as objects before the queue packs the rest into one byte buffer
   * (`stateQueue.ts`), which costs about 1 µs a state and saves memory and collector time on
   * long queues. No result depends on it. A whole number of at least 0 (0 packs every state);
   * anything else is refused with a `TypeError`. @default 4096
   */
  readonly packFrom?: number;
  /** Called about every `progressIntervalMs` while the search runs. */
  readonly onProgress?: (progress: Progress) => void;
  /** Milliseconds between progress calls (checked every 128 expanded states). @default 1000 */
  readonly progressIntervalMs?: number;
  /**
   * Called once per new distinct state, with its index (0 is the initial state) and the length
   * of the path it was discovered by (breadth first: its distance from the initial state). On
   * the main thread the state may be kept: its context is its own, never a buffer the search
   * reuses. With `workers`, each worker calls its own run's `onState`, on its thread, with
   * index and depth -1, for every successor it does not find stored (the merge may then find
   * it a duplicate), and the state is valid only during the call, as `onMove`'s; what the
   * callback records comes back through `journal`.
   */
  readonly onState?: (state: SnapshotLike<TContext>, index: number, depth: number) => void;
  /**
   * Whether `onState` may keep the state it is given beyond the call. With false, the state is
   * valid only during the call on the main thread too, as on a worker, and a search with a
   * vector context packs a new state into its queue without first copying its words out of
   * the scratch vector (a copy per new state, thrown away at once). Nothing else changes:
   * the same states, counts, verdicts and traces. Anything but true or false is refused with a
   * `TypeError`. @default true
   */
  readonly keepsStates?: boolean;
  /**
   * Called for every enabled (state, event) pair with the indices of source and target. A run
   * with it keeps the store that indexes duplicates (more memory a state, see `stateStore.ts`).
   */
  readonly onTransition?: (from: number, event: TEvent, to: number) => void;
  /**
   * Called for every enabled (state, event) pair with the source and the successor (under
   * symmetry, the successor's representative). The states are valid only during the call: a
   * callback that keeps one copies it. Unlike `onTransition` it needs no index, so the run keeps
   * the compact store.
   */
  readonly onMove?: (
    from: SnapshotLike<TContext>,
    event: TEvent,
    to: SnapshotLike<TContext>,
  ) => void;
  /**
   * `exploreAsync` only: expand on worker threads once a breadth-first level is large enough
   * (see `WorkerOptions`). Needs fingerprints (`exact` off), breadth-first order and no
   * `onTransition`. @default none (one thread)
   */
  readonly workers?: WorkerOptions;
  /**
   * What the callbacks (`onState`, `onMove`, the invariants) recorded, as an append-only log of
   * distinct entries, so that a worker thread's records reach the main thread's recorder: the
   * worker ships each entry its log gains while it handles a move or a state, and the main
   * thread passes it to `apply` when it merges that move, in the order one thread would have met
   * it. `apply` must be idempotent. Needed for `workers` when the callbacks record anything.
   */
  readonly journal?: Journal;
}

/** An append-only log of a run's records and how to replay one (`ExploreOptions.journal`). */
export interface Journal {
  readonly log: readonly string[];
  apply(entry: string): void;
}

/**
 * How a worker thread builds the same run: it imports `module` (a file URL), calls its export
 * `name` with `arg` (structured-cloneable) and explores the machine and options returned, a
 * `WorkerRun`. The main thread's own options must be what the same call returns. The workers
 * run `module` bundled with everything it imports (`workerBundle.ts`), or, when it cannot be
 * bundled, import it through the TypeScript loader.
 */
export interface WorkerRecipe {
  readonly module: string;
  readonly name: string;
  readonly arg: unknown;
}

/** What a `WorkerRecipe`'s export returns: the machine and the options of the run. */
export interface WorkerRun<TContext, TEvent extends EventObject> {
  readonly machine: AnyStateMachine;
  readonly options: ExploreOptions<TContext, TEvent>;
}

/**
 * Several threads for one breadth-first search. The main thread searches alone until a level
 * holds `from` states, then hands the frontier to `count` worker threads in chunks of `chunk`
 * states: they expand it, evaluate the invariants and callbacks on the successors not yet
 * stored (looking them up in the store's shared fingerprint table), and the main thread merges
 * their results in the order one thread would have found them, so states, transitions,
 * verdicts, traces and the journal's records are those of one thread. A worker sends a state's
 * verdicts as one 32-bit word, so a run on workers takes at most 32 invariants and 32 terminal
 * invariants (`explore` throws a `TypeError` beyond that; one thread takes any number).
 */
export interface WorkerOptions {
  /** Worker threads, at least 2 (1 is one thread: no workers). */
  readonly count: number;
  readonly recipe: WorkerRecipe;
  /**
   * The workers start with the search and take over at the first level of at least `early`
   * states once they have all built their run, and at the first level of at least `from` states
   * in any case (waiting for them, and rejecting if one could not start). When they take over
   * does not change any result, only the time. @default 4096
   */
  readonly from?: number;
  /** See `from`. @default 512 */
  readonly early?: number;
  /**
   * The workers start once the search has stored this many states, instead of with it: a
   * search that ends before runs on one thread and pays nothing for them (their code, their
   * start-up, their cold caches). No level is handed over before they start, and workers
   * started late take over at the first level of at least `early` states once they are ready,
   * `from` aside: the search goes on alone meanwhile instead of waiting for them.
   * @default 0 (they start with the search)
   */
  readonly start?: number;
  /** States per chunk. @default 1024 */
  readonly chunk?: number;
}

/** Size and speed of one search. */
export interface ExploreStats {
  /** Distinct states stored (representatives, when `symmetry` is set). */
  readonly states: number;
  /**
   * With `symmetry` and `orbitSize`: the sum of the orbit sizes of the stored representatives,
   * i.e. how many states of the unreduced space they stand for. Absent otherwise.
   */
  readonly unreducedStates?: number;
  /**
   * With `ample`: how many stored states were expanded with an ample set alone (the rest were
   * expanded fully). Absent otherwise.
   */
  readonly ampleStates?: number;
  /**
   * Enabled (state, offered event) pairs: the macrostep changed XState's snapshot (an `assign`
   * ran, the configuration changed, or the root completed), i.e. `transition(...)[0]` is a new
   * snapshot; a selected transition that changes none of these is a stutter and not counted.
   */
  readonly transitions: number;
  /**
   * The longest discovery path to a stored state: breadth first, the deepest level (the
   * eccentricity of the initial state); depth first, the deepest point of the search tree.
   */
  readonly depth: number;
  /** Wall-clock milliseconds, including the shortening pass of a depth-first search. */
  readonly ms: number;
  /**
   * Memory of the visited-state store divided by `states`. Fingerprint mode: the typed arrays,
   * measured: the fingerprint table and the block of trace records not yet on disk (compact
   * store; the records on disk, 16 bytes a state, are not memory), or the hash table,
   * fingerprints, parent and event indices (indexed store, runs with `onTransition`). Exact
   * mode: the typed arrays plus 2 bytes per key character, a lower bound that ignores `Map`
   * overhead.
   */
  readonly bytesPerState: number;
}

/** One step of a counterexample: the event, then the state it led to. */
export interface TraceStep<TContext, TEvent extends EventObject> {
  readonly event: TEvent;
  readonly state: StateProjection<TContext>;
}

/** A violated invariant and its shortest counterexample from the initial state. */
export interface Violation<TContext, TEvent extends EventObject> {
  readonly name: string;
  readonly initial: StateProjection<TContext>;
  readonly trace: readonly TraceStep<TContext, TEvent>[];
  /**
   * Present (false) only when the trace may not be a shortest one: a depth-first search or a
   * reduced one (`ample`) found it and the breadth-first shortening pass (unreduced) stopped at
   * a bound before reaching the invariant.
   */
  readonly shortest?: false;
}

/** What stopped a bounded search. */
export interface ExploreBound {
  /**
   * `maxMemory`'s limit is in MiB of V8 heap in use; `interrupted` (the `signal` was aborted:
   * Ctrl-C in the CLI) gives the seconds the search had run.
   */
  readonly reason: 'maxStates' | 'maxSeconds' | 'maxMemory' | 'interrupted';
  readonly limit: number;
}

/** The outcome of `explore`. */
export interface ExploreResult<TContext, TEvent extends EventObject> {
  /** `violation` if any invariant failed; else `incomplete` if a bound stopped it; else `ok`. */
  readonly status: 'ok' | 'violation' | 'incomplete';
  readonly stats: ExploreStats;
  /** One entry per violated invariant, in the order the options list them. */
  readonly violations: readonly Violation<TContext, TEvent>[];
  /** Set when `maxStates`, `maxSeconds`, `maxMemory` or `signal` ended the search early. */
  readonly bound?: ExploreBound;
  /**
   * Fingerprint mode only: an estimate of the probability that two distinct reachable states
   * share a 64-bit fingerprint, so that one of them was never explored: the birthday bound
   * `n(n-1)/2 / 2^64` for `n` stored states, assuming uniform fingerprints. (TLC's "optimistic"
   * estimate, `n(g-n) / 2^64` for `g` generated states, is of the same order, since `g` is a
   * small multiple of `n`.)
   */
  readonly collisionProbability?: number;
}
