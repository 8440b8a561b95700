/**
 * The Outcome: the plain, JSON-serialisable record a check produces and every printer and
 * exporter consumes. Nothing in it refers to XState objects.
 */
import { type Witness, witnesses } from '../../invariants/index.ts';
import type { ExploreBound } from '../engine/index.ts';
import type { TraceChange } from './change.ts';

export type {
  ChangeKind,
  ChangeOf,
  KvWriter,
  MovedRegion,
  ReplySide,
  TraceChange,
} from './change.ts';

/** A run's verdict: `incomplete` whenever a bound stopped the search before a violation. */
export type Verdict = 'ok' | 'violation' | 'incomplete';

/** A property's status: `unknown` when the search was bounded and found no violation. */
export type PropertyStatus = 'holds' | 'violated' | 'unknown';

/** Size and cost of one exploration. */
export interface Stats {
  /** Distinct states reached (representatives, under symmetry reduction). */
  readonly states: number;
  /**
   * Under symmetry reduction (fast engine): how many states of the unreduced space the
   * representatives stand for, the sum of their orbit sizes, computed exactly. Absent otherwise.
   */
  readonly unreducedStates?: number;
  /**
   * Under partial-order reduction (fast engine, `EngineInfo.por`): the states expanded by one
   * request's local steps alone, whose other successors were not stored. Absent otherwise.
   */
  readonly ampleStates?: number;
  /** Enabled transitions explored (edges whose target differs from their source snapshot). */
  readonly transitions: number;
  /**
   * Length of the longest shortest path from the initial state; under a depth-first search
   * (`EngineInfo.search`), the deepest point of the search tree instead.
   */
  readonly depth: number;
  /** Wall-clock milliseconds for exploration and checking. */
  readonly ms: number;
}

/** Where each region of each request is, by dot path (`placeholder.waiting`). */
export type RegionSnapshot = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** One step of a counterexample. */
export interface TraceStep {
  /** 1-based step number. */
  readonly step: number;
  /** Who acts: router, prefill scheduler, decode scheduler, transfer, timer or fault. */
  readonly actor: string;
  /** The event type, e.g. `PREFILL_INTAKE`. */
  readonly event: string;
  /** The request the event concerns. */
  readonly rid: string;
  /** That request's tenant. */
  readonly tenant: string;
  /**
   * What changed, one record each, in `stepChanges` order: regions and the transfer room, each
   * request's own record, page owners and writers, reads, replies (`change.ts`).
   */
  readonly changes: readonly TraceChange[];
  /** Every region's state after the step. */
  readonly regions: RegionSnapshot;
}

/** A shortest path from the initial state to a state that violates a property. */
export interface Trace {
  /** What is wrong in the last state, with names and numbers. */
  readonly message: string;
  readonly steps: readonly TraceStep[];
  /**
   * Present (false) only when the path may not be a shortest one: a depth-first or
   * partial-order reduced search found it and the breadth-first pass that shortens traces
   * stopped at a bound first.
   */
  readonly shortest?: false;
}

/**
 * A liveness counterexample (a lasso) told as a Trace: `steps` are the prefix, then the cycle.
 * The state after the last step is the state after step `loop` (the initial state when `loop`
 * is 0), so steps `loop + 1` to the last repeat forever; `0 <= loop < steps.length`. This is
 * ITF's `loop`: the index, in a list of states that starts with the initial one, of the state
 * where the cycle starts.
 */
export interface LassoTrace extends Trace {
  readonly loop: number;
  /** The request whose obligation the cycle leaves open. */
  readonly rid: string;
}

/** One property's result in one run. */
export interface PropertyResult {
  readonly name: string;
  readonly statement: string;
  readonly status: PropertyStatus;
  readonly trace?: Trace;
  /**
   * Present (true) when the property holds only vacuously: no explored state fired its trigger,
   * the condition under which it can fail at all (see `Property.trigger`).
   */
  readonly vacuous?: true;
  /** With `vacuous`: why, in words (`no request reused prefix-cache pages`). */
  readonly vacuity?: string;
}

/** Whether a witness was reached in one run. */
export interface WitnessResult {
  readonly name: string;
  readonly statement: string;
  readonly reached: boolean;
  /** The scenario requires it: an unreached required witness makes a pass vacuous. */
  readonly required: boolean;
}

/**
 * One WitnessResult per registered witness, in registry order: `reached(name, w)` says whether
 * the run reached it; `required` lists the witnesses the scenario requires.
 */
export function witnessResultsOf(
  reached: (name: string, w: Witness) => boolean,
  required: readonly string[] = [],
): WitnessResult[] {
  const needed = new Set(required);
  return Object.entries(witnesses).map(([name, w]) => ({
    name,
    statement: w.statement,
    reached: reached(name, w),
    required: needed.has(name),
  }));
}

/**
 * One request's lifecycle move seen in the exploration: the event, and the four regions' state
 * paths before and after it (the state space projected onto one request). Exporters match these
 * against a statechart's transitions to report coverage.
 */
export interface LifecycleMove {
  readonly event: string;
  readonly before: Readonly<Record<string, string>>;
  readonly after: Readonly<Record<string, string>>;
}

/** Why a search stopped early: the fast engine's `ExploreBound`, which the reference engine
 * reports too (`maxStates` or `maxSeconds`). */
export type Bound = ExploreBound;

/** Which engine produced a result, and its own figures. */
export interface EngineInfo {
  readonly name: 'graph' | 'fast';
  /** Symmetry reduction was on: `states` counts representatives. */
  readonly symmetry: boolean;
  /** Full state keys were stored (no fingerprint collisions possible). */
  readonly exact: boolean;
  /**
   * Partial-order reduction was on: `states` counts the reduced space. A scenario whose
   * requests share bootstrap rooms offers no reduction: `Stats.ampleStates` is 0 there.
   */
  readonly por: boolean;
  /** The search order: `breadth` (a level at a time) or `depth` (a path at a time). */
  readonly search: 'breadth' | 'depth';
  /** Memory of the visited-state store per state (fast engine). */
  readonly bytesPerState?: number;
  /** Fingerprint mode: the probability that two stored states share a fingerprint. */
  readonly collisionProbability?: number;
}

/** The result of one scenario under one variant. */
export interface ScenarioResult {
  readonly scenario: string;
  readonly variant: string;
  /**
   * `incomplete` also when the search finished without a violation but left a required witness
   * unreached (`unreachedWitnesses`).
   */
  readonly status: Verdict;
  /** Required witnesses the run never reached; present only when some were. */
  readonly unreachedWitnesses?: readonly string[];
  readonly stats: Stats;
  /** Present when a bound stopped the search. */
  readonly bound?: Bound;
  readonly properties: readonly PropertyResult[];
  readonly witnesses: readonly WitnessResult[];
  /** Every distinct lifecycle move explored, over all requests, sorted. */
  readonly coverage: readonly LifecycleMove[];
  /** The engine that explored, when not the reference engine. */
  readonly engine?: EngineInfo;
}

/** Everything a `check` run produced, one result per scenario × variant. */
export interface Outcome {
  readonly results: readonly ScenarioResult[];
}

/** The verdict of several results: any violation wins, then any incomplete. */
export function overallVerdict(results: readonly ScenarioResult[]): Verdict {
  if (results.some((r) => r.status === 'violation')) return 'violation';
  if (results.some((r) => r.status === 'incomplete')) return 'incomplete';
  return 'ok';
}
