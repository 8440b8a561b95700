/**
 * `explore`: the fast exhaustive engine. It compiles an XState v5 machine (inside the subset
 * `readMachine` accepts) once into per-node transition tables, then searches (breadth first by
 * default, or depth first) over (configuration, context) states with the engine's own
 * interpreter, which reproduces XState 5.33.3's macrostep semantics and calls the machine's
 * guard and action implementations directly. Visited states are 64-bit fingerprints (or exact
 * keys); counterexamples are shortest and rebuilt by replay. `exploreAsync` is the same search
 * in time slices, so that it can be interrupted.
 */
import type { AnyStateMachine, ContextFrom, EventFromLogic, EventObject } from 'xstate';
import { type CompiledMachine, compileMachine } from './compiledMachine.ts';
import type { EngineState } from './configView.ts';
import { collisionProbability } from './fingerprint.ts';
import { initialState } from './initialState.ts';
import { expandOnWorkers, WorkerPool } from './parallel.ts';
import { Search } from './search.ts';
import { rebuildTrace } from './trace.ts';
import type { ExploreOptions, ExploreResult, Violation, WorkerOptions } from './types.ts';

function violationsOf<C, E extends EventObject>(
  search: Search<C, E>,
  initial: EngineState,
): Violation<C, E>[] {
  return [...search.invariants, ...search.terminal]
    .filter((check) => check.at !== -1)
    .map((check) => ({ name: check.name, ...rebuildTrace(search, initial, check.at) }));
}

/** The entries of `spec` (invariants, or their reads) whose names are in `names`. */
function only<T>(
  spec: Readonly<Record<string, T>> | undefined,
  names: ReadonlySet<string>,
): Record<string, T> {
  return Object.fromEntries(Object.entries(spec ?? {}).filter(([name]) => names.has(name)));
}

/**
 * The depth-first or reduced violations `found`, each with the shortest trace a breadth-first
 * pass of the whole (unreduced) space finds
 * for it; the pass checks only those invariants, stops once each is violated, and keeps the
 * bounds, without the callbacks. A violation the pass does not reach keeps its discovery path,
 * marked `shortest: false`.
 */
function* shortened<C, E extends EventObject>(
  found: readonly Violation<C, E>[],
  machine: AnyStateMachine,
  compiled: CompiledMachine,
  options: ExploreOptions<C, E>,
  sliceMs: number,
): Generator<Step, Violation<C, E>[]> {
  const names = new Set(found.map((v) => v.name));
  const {
    onState: _onState,
    onTransition: _onTransition,
    onProgress: _onProgress,
    orbitSize: _orbitSize,
    ample: _ample,
    ...rest
  } = options;
  const pass = new Search<C, E>(
    compiled,
    {
      ...rest,
      order: 'breadth',
      stopAtFirstViolation: false,
      invariants: only(options.invariants, names),
      terminalInvariants: only(options.terminalInvariants, names),
      reads: only(options.reads, names),
    },
    true,
  );
  const initial = initialState(machine, compiled, pass.views, options.input);
  yield* searching(pass, initial, sliceMs);
  const shortest = new Map(violationsOf(pass, initial).map((v) => [v.name, v]));
  pass.dispose();
  return found.map((v) => shortest.get(v.name) ?? { ...v, shortest: false });
}

/** What the search yields between slices: nothing, or the work of its worker threads. */
type Step = Promise<void> | undefined;

/**
 * Runs `search` from `initial` to its end, yielding after each slice of `sliceMs`, and then, if
 * it handed a level over (`options.workers`), the promise of the worker threads' search.
 * `makePool` starts the worker threads (a test's stand-in may record when it is called).
 */
export function* searching<C, E extends EventObject>(
  search: Search<C, E>,
  initial: EngineState,
  sliceMs: number,
  makePool: (workers: WorkerOptions) => WorkerPool = (workers) => new WorkerPool(workers),
): Generator<Step, void> {
  const workers = search.options.workers;
  const wanted = workers !== undefined && workers.count > 1 ? workers : null;
  const startPool = (w: WorkerOptions): WorkerPool => {
    const pool = makePool(w);
    search.startedWorkers(() => pool.settled);
    return pool;
  };
  // Started first by default, so that the threads build their run while the first levels are
  // searched; with `start`, once the search has stored that many states (it returns for them).
  let pool = wanted !== null && search.workersDueNow ? startPool(wanted) : null;
  try {
    search.start(initial);
    while (!search.advance(performance.now() + sliceMs)) {
      if (pool === null && wanted !== null && search.workersDueNow) pool = startPool(wanted);
      yield;
    }
    if (search.handed && pool !== null) yield expandOnWorkers(search, pool);
  } finally {
    if (pool !== null) yield pool.terminate();
  }
}

/** The whole of `explore`, yielding between slices of `sliceMs` (Infinity: never). */
function* exploring<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<TContext, TEvent>,
  sliceMs: number,
): Generator<Step, ExploreResult<TContext, TEvent>> {
  const compiled = compileMachine(machine);
  const search = new Search<TContext, TEvent>(compiled, options);
  const initial = initialState(machine, compiled, search.views, options.input);
  yield* searching(search, initial, sliceMs);
  const found = violationsOf(search, initial);
  search.dispose();
  const violations =
    (options.order === 'depth' || options.ample !== undefined) && found.length > 0
      ? yield* shortened(found, machine, compiled, options, sliceMs)
      : found;
  const states = search.store.size;
  const status = violations.length > 0 ? 'violation' : search.bound ? 'incomplete' : 'ok';
  const result: ExploreResult<TContext, TEvent> = {
    status,
    stats: {
      states,
      ...(options.symmetry && options.orbitSize ? { unreducedStates: search.unreduced } : {}),
      ...(options.ample ? { ampleStates: search.ampleStates } : {}),
      transitions: search.transitions,
      depth: search.maxDepth,
      ms: Math.round(search.elapsed()),
      bytesPerState: Math.round((search.store.bytes() / Math.max(1, states)) * 10) / 10,
    },
    violations,
  };
  const withBound = search.bound ? { ...result, bound: search.bound } : result;
  return options.exact
    ? withBound
    : { ...withBound, collisionProbability: collisionProbability(states) };
}

/**
 * Explores every state of `machine` reachable with the offered events (see
 * `ExploreOptions.events`), checking `invariants` on each and `terminalInvariants` where no
 * event is enabled. State identity is the active configuration, the done status and the
 * context's JSON text (a vector context's words, see `vectorContext.ts`). With `symmetry` off,
 * the states are exactly those `getAdjacencyMap` finds with the same events when it keys
 * snapshots by value, context and status; its default key omits the status, which matters
 * only for a machine whose root completes and is then left by a transition (a done and an
 * active snapshot with equal value and context, which it merges and this engine keeps apart).
 * Returns `violation` with one shortest trace per violated invariant (depth first, see
 * `ExploreOptions.order`), else `incomplete` if `maxStates`, `maxSeconds`, `maxMemory` or
 * `signal` stopped the search, else `ok`. The stats are the search's own; `ms` includes the
 * shortening pass of a depth-first search. Runs to the end without yielding to the event loop
 * (see `exploreAsync`).
 *
 * Throws `UnsupportedFeatureError` (`unsupported: <feature> at #<state id>`) for a machine
 * outside the subset (see `index.ts`), and whatever a guard or action throws.
 */
export function explore<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options?: ExploreOptions<ContextFrom<TMachine>, EventFromLogic<TMachine>>,
): ExploreResult<ContextFrom<TMachine>, EventFromLogic<TMachine>>;
/** `explore` with the context and event types given explicitly. */
export function explore<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options?: ExploreOptions<TContext, TEvent>,
): ExploreResult<TContext, TEvent>;
export function explore<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<TContext, TEvent> = {},
): ExploreResult<TContext, TEvent> {
  const { workers: _workers, ...oneThread } = options;
  const run = exploring(machine, oneThread, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = run.next();
    if (step.done) return step.value;
  }
}

/**
 * `explore`, yielding to the event loop after every `sliceMs` milliseconds of search (at least
 * 1; default 50), so that timers and signal handlers run while it searches: abort
 * `options.signal` from one to stop it with what it has explored. Same states, counts, verdicts
 * and traces as `explore`; rejects where `explore` throws.
 */
export function exploreAsync<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options?: ExploreOptions<ContextFrom<TMachine>, EventFromLogic<TMachine>>,
  sliceMs?: number,
): Promise<ExploreResult<ContextFrom<TMachine>, EventFromLogic<TMachine>>>;
/** `exploreAsync` with the context and event types given explicitly. */
export function exploreAsync<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options?: ExploreOptions<TContext, TEvent>,
  sliceMs?: number,
): Promise<ExploreResult<TContext, TEvent>>;
export async function exploreAsync<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<TContext, TEvent> = {},
  sliceMs = 50,
): Promise<ExploreResult<TContext, TEvent>> {
  const run = exploring(machine, options, Math.max(1, sliceMs));
  let step = run.next();
  for (;;) {
    if (step.done) return step.value;
    try {
      await (step.value ?? new Promise<void>((resolve) => setImmediate(resolve)));
    } catch (e) {
      // Thrown into the run, so that its `finally` ends the worker threads before it rethrows:
      // left suspended, it would leave them running and the process alive.
      step = run.throw(e);
      continue;
    }
    step = run.next();
  }
}
