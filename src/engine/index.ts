/**
 * The fast exhaustive engine: `explore(machine, options)` for XState v5 machines made with
 * `setup()`, agreeing exactly with `getAdjacencyMap` from `xstate/graph`.
 *
 * The supported subset (anything else is refused with `unsupported: <feature> at #<state>`):
 * - atomic, compound, parallel and final states; `on` transitions with one target, several
 *   targets (in different regions), or none; `reenter`; `*` and `prefix.*` descriptors; `onDone`
 *   (done events carry no output);
 * - guards: named (static or function `params`), inline functions, `and`, `or`, `not`,
 *   `stateIn` (a `#id` or a state value); a named guard may itself be one of these;
 * - actions: `assign` (function or per-key object form, static or function `params`), `raise`
 *   of an event object or of an expression of the moment and params, in transitions, `entry`
 *   and `exit`; `log` and custom actions are inert, as under `xstate/graph`, whose action
 *   executor never runs them;
 * - context: plain JSON data (checked on the initial context), never mutated in place;
 *   `context` may be a function of `input`. Or a vector context `{ words: Int32Array, ...static
 *   fields }` (see `vectorContext.ts`), identified by its words alone and updated by
 *   `vectorAssign` actions, which the engine runs in place on a per-step copy.
 * Refused: `invoke`, `after`, `always`, `history`, `route`, `output`, initial-transition
 * actions, delayed `raise`, `sendTo`, `sendParent`, `emit`, `enqueueActions`, `spawnChild`,
 * `stopChild`, `cancel`, and any other built-in action.
 *
 * Besides the search: `stepper` takes one event at a time with the same semantics (random
 * walks, replays); `activeNodesOf` reads the active nodes of a snapshot of either engine, so
 * one `events` function serves `explore` and `xstate/graph`; `readStatechart` gives a machine's
 * shape as plain data. The engine knows no particular machine: what to offer, how states are
 * symmetric and what to check all come in through `ExploreOptions`. This file is its only
 * entry point for the rest of kvcheck.
 */
export { type AnySnapshot, activeNodesOf } from './activeNodes.ts';
export { explore, exploreAsync } from './explore.ts';
/**
 * Hashing steps of the engine's fingerprints (Murmur3's block step and finaliser, and a two-lane
 * string hash), for callers that hash states themselves.
 */
export { collisionProbability, fmix32, type Hash64, hashString, mixA } from './fingerprint.ts';
export { type Footprint, type FootprintOptions, visitFootprints } from './footprints.ts';
export {
  checkLiveness,
  type Lasso,
  type LeadsTo,
  type LeadsToVerdict,
  type LivenessOptions,
  type LivenessResult,
} from './liveness.ts';
export {
  type BreadthFirstTree,
  breadthFirstTree,
  exploreReference,
} from './referenceExplore.ts';
/** Copies of state vectors' words carved out of shared slabs (see `slab.ts`). */
export { WordSlab } from './slab.ts';
export type {
  ActionRef,
  GuardTerm,
  StatechartNode,
  StatechartTransition,
} from './statechart.ts';
export { type Stepper, type StepperOptions, stepper } from './stepper.ts';
/** XState's event descriptor match (exact, `*`, or `prefix.*`), for readers of a statechart. */
export { matchesEventDescriptor } from './structure.ts';
export type {
  ActiveNode,
  EventSource,
  ExploreBound,
  ExploreOptions,
  ExploreResult,
  ExploreStats,
  Invariant,
  InvariantReads,
  Journal,
  Progress,
  SnapshotLike,
  StateProjection,
  TraceStep,
  Violation,
  WorkerOptions,
  WorkerRecipe,
  WorkerRun,
} from './types.ts';
/**
 * Vector contexts: the context shape, its test, `vectorAssign` (an XState `assign` that the
 * engine runs in place) and the hash of a vector's words behind its fingerprints.
 */
export {
  hashWords,
  type InPlaceUpdate,
  isVectorContext,
  type VectorContext,
  vectorAssign,
} from './vectorContext.ts';
/**
 * Recorded words: an `Int32Array` stand-in that logs every word a computation reads or writes,
 * for self-checks of what computations over a vector touch (never the search's hot path).
 */
export { recordingWords, type WordLog, wordLog } from './wordRecorder.ts';
/**
 * kvcheck's modules bundled for Node, as the worker threads load them; the command line's own
 * bundle (`src/cli/cliBundle.ts`) is made the same way.
 */
export { bundleFileName, nodeBundle, writeAside } from './workerBundle.ts';
export { readStatechart, UnsupportedFeatureError } from './xstateInternals.ts';
