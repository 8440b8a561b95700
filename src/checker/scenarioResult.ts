/**
 * The one result builder: an engine's `ExploreResult`, plus what was recorded on the way
 * (witnesses reached, lifecycle moves), becomes the Outcome's `ScenarioResult`. Both engines
 * report through it, so verdicts, traces, witnesses, coverage and stats are worked out once.
 */
import { witnesses } from '../../invariants/index.ts';
import type { Property } from '../../invariants/property.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import { type ExternalEvent, externalEventTypes } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { ExploreResult, Journal, StateProjection, Violation } from '../engine/index.ts';
import type { ResolvedCheckOptions } from './checkOptions.ts';
import {
  type LifecycleMove,
  type PropertyResult,
  type ScenarioResult,
  type Trace,
  witnessResultsOf,
} from './outcome.ts';
import { regionSnapshot, traceFrom } from './stepChanges.ts';

/** A projection of the serving machine as the properties read it. */
export function plainState(p: StateProjection<ServingContext>): ServingState {
  return { value: p.value as unknown as ServingState['value'], context: p.context };
}

/** Each external event type's index, for `moveKey`. */
const typeIndex = new Map<string, number>(externalEventTypes.map((t, i) => [t, i]));

/**
 * A lifecycle move's number: its event type's index and its two region tuple ids packed into
 * one safe integer (a `move` per transition then builds no string).
 */
function moveKey(type: string, a: number, b: number): number {
  const t = typeIndex.get(type);
  if (t === undefined || a >= 2 ** 20 || b >= 2 ** 20) {
    throw new RangeError(`lifecycle move out of range: ${type} ${a} ${b}`);
  }
  return (b * 2 ** 20 + a) * 64 + t;
}

/** The event type and the two tuple ids that `moveKey` packed into `key`. */
function unpackMove(key: number): readonly [string, number, number] {
  const t = key % 64;
  const ab = (key - t) / 64;
  const a = ab % 2 ** 20;
  return [externalEventTypes[t] as string, a, (ab - a) / 2 ** 20];
}

/**
 * Records, state by state and move by move, what a `ScenarioResult` needs beyond the engine's
 * own result: the witnesses reached and, when `coverage` is on, each request's distinct
 * lifecycle moves, read from the source and successor states of each move (`move`), so that
 * nothing is kept per state.
 */
export class ResultRecorder implements Journal {
  /**
   * What was recorded, one entry per first record: `w` and a witness reached, `t` and a
   * property whose trigger fired, `m` and a lifecycle move as JSON (`apply` replays one).
   */
  readonly log: string[] = [];
  private readonly reached = new Set<string>();
  /** The witnesses not reached yet (each is dropped once reached). */
  private pending = Object.entries(witnesses);
  /** Each request's interned region tuple, by state value: a function of the configuration. */
  private readonly tuplesByValue = new WeakMap<object, number[]>();
  private readonly fired = new Set<string>();
  private readonly ids = new Map<string, number>();
  private readonly tuples: Record<string, string>[] = [];
  /** The distinct lifecycle moves, each packed by `moveKey`. */
  private readonly moves = new Set<number>();

  /** `rids`: the scenario's requests in order; `coverage`: record lifecycle moves. */
  constructor(
    private readonly rids: readonly string[],
    readonly coverage: boolean,
  ) {}

  /** A new distinct state. */
  state(s: StateProjection<ServingContext>): void {
    if (this.pending.length > 0) this.reach(plainState(s));
  }

  /** An enabled transition `from` → `to` by `event` (states read during the call only). */
  move(
    from: StateProjection<ServingContext>,
    event: ExternalEvent,
    to: StateProjection<ServingContext>,
  ): void {
    const r = this.rids.indexOf(event.rid);
    const a = this.tuplesOf(plainState(from))[r];
    const b = this.tuplesOf(plainState(to))[r];
    if (a === undefined || b === undefined) return;
    const key = moveKey(event.type, a, b);
    if (this.moves.has(key)) return;
    this.moves.add(key);
    this.log.push(`m${JSON.stringify([event.type, this.tuples[a], this.tuples[b]])}`);
  }

  /** Evaluates the trigger of property `name` on `s`, until it first fires. */
  trigger(name: string, p: Property, s: ServingState): void {
    if (this.fired.has(name) || !p.trigger.fires(s)) return;
    this.fired.add(name);
    this.log.push(`t${name}`);
  }

  /** Records what entry `entry` of another recorder's `log` records (idempotent). */
  apply(entry: string): void {
    const body = entry.slice(1);
    if (entry.startsWith('w')) this.reached.add(body);
    else if (entry.startsWith('t')) this.fired.add(body);
    else if (entry.startsWith('m')) {
      const [type, a, b] = JSON.parse(body) as [
        string,
        Record<string, string>,
        Record<string, string>,
      ];
      this.moves.add(moveKey(type, this.intern(a), this.intern(b)));
    }
  }

  /** Whether the trigger of property `name` fired in some explored state. */
  hasFired(name: string): boolean {
    return this.fired.has(name);
  }

  /** Whether the witness `name` was reached. */
  hasReached(name: string): boolean {
    return this.reached.has(name);
  }

  /** The distinct lifecycle moves, sorted by their JSON text. */
  lifecycleMoves(): LifecycleMove[] {
    return [...this.moves]
      .map((key): LifecycleMove => {
        const [event, a, b] = unpackMove(key);
        return { event, before: this.tuples[a] ?? {}, after: this.tuples[b] ?? {} };
      })
      .map((m) => [JSON.stringify(m), m] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, m]) => m);
  }

  private reach(state: ServingState): void {
    let kept = 0;
    for (const entry of this.pending) {
      if (entry[1](state)) {
        this.reached.add(entry[0]);
        this.log.push(`w${entry[0]}`);
      } else this.pending[kept++] = entry;
    }
    this.pending.length = kept;
  }

  /** Each request's region tuple id in `state`, computed once per (frozen) state value. */
  private tuplesOf(state: ServingState): number[] {
    const value = state.value as object;
    const known = Object.isFrozen(value) ? this.tuplesByValue.get(value) : undefined;
    if (known) return known;
    const regions = regionSnapshot(state);
    const ids = this.rids.map((rid) => this.intern(regions[rid] ?? {}));
    if (Object.isFrozen(value)) this.tuplesByValue.set(value, ids);
    return ids;
  }

  private intern(tuple: Readonly<Record<string, string>>): number {
    const key = JSON.stringify(tuple);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.tuples.length;
      this.ids.set(key, id);
      this.tuples.push({ ...tuple });
    }
    return id;
  }
}

function traceOf(v: Violation<ServingContext, ExternalEvent>, message: string): Trace {
  const path = v.trace.map((t) => ({ event: t.event, state: plainState(t.state) }));
  const trace = traceFrom(plainState(v.initial), path, message);
  return v.shortest === false ? { ...trace, shortest: false } : trace;
}

/** What `scenarioResult` reads. */
export interface ResultInput {
  readonly scenario: Scenario;
  readonly variant: string;
  readonly options: ResolvedCheckOptions;
  /** The checked properties, by name, in registry order. */
  readonly selected: readonly (readonly [string, Property])[];
  readonly recorder: ResultRecorder;
  readonly result: ExploreResult<ServingContext, ExternalEvent>;
}

/**
 * The `ScenarioResult` of one exploration: each selected property `violated` (with its shortest
 * trace, told step by step), `holds` when the search was complete (marked `vacuous`, with the
 * reason, when no explored state fired its trigger), `unknown` when a bound stopped it; the
 * witnesses reached; coverage (without symmetry); the stats; and, for the fast engine, its
 * storage figures. The status is the engine's, except that a pass which left a required
 * witness unreached is `incomplete` (`unreachedWitnesses` names them): it proves nothing.
 */
export function scenarioResult(input: ResultInput): ScenarioResult {
  const { result, options, recorder } = input;
  const violated = new Map(result.violations.map((v) => [v.name, v]));
  const complete = result.status !== 'incomplete' && result.bound === undefined;
  const propertyResults: PropertyResult[] = input.selected.map(([name, prop]) => {
    const v = violated.get(name);
    if (!v && !complete) return { name, statement: prop.statement, status: 'unknown' };
    if (!v) {
      const holds = { name, statement: prop.statement, status: 'holds' as const };
      return recorder.hasFired(name)
        ? holds
        : { ...holds, vacuous: true as const, vacuity: prop.trigger.vacuity };
    }
    const last = v.trace.at(-1)?.state ?? v.initial;
    const message = prop.explain(plainState(last)) ?? `${name} violated`;
    return { name, statement: prop.statement, status: 'violated', trace: traceOf(v, message) };
  });
  const witnessResults = witnessResultsOf(
    (name) => recorder.hasReached(name),
    options.requiredWitnesses,
  );
  // A pass that did not reach a witness the scenario requires proves nothing about it.
  const unreached = witnessResults.filter((w) => w.required && !w.reached).map((w) => w.name);
  const status = result.status === 'ok' && unreached.length > 0 ? 'incomplete' : result.status;
  const base: ScenarioResult = {
    scenario: input.scenario.name,
    variant: input.variant,
    status,
    ...(unreached.length > 0 ? { unreachedWitnesses: unreached } : {}),
    stats: {
      states: result.stats.states,
      ...(result.stats.unreducedStates !== undefined
        ? { unreducedStates: result.stats.unreducedStates }
        : {}),
      ...(options.por && options.engine === 'fast'
        ? { ampleStates: result.stats.ampleStates ?? 0 }
        : {}),
      transitions: result.stats.transitions,
      depth: result.stats.depth,
      ms: result.stats.ms,
    },
    properties: propertyResults,
    witnesses: witnessResults,
    coverage: recorder.coverage ? recorder.lifecycleMoves() : [],
    ...(options.engine === 'fast'
      ? {
          engine: {
            name: 'fast' as const,
            symmetry: options.symmetry,
            exact: options.exact,
            por: options.por,
            search: options.order,
            bytesPerState: result.stats.bytesPerState,
            ...(result.collisionProbability !== undefined
              ? { collisionProbability: result.collisionProbability }
              : {}),
          },
        }
      : {}),
  };
  return result.bound ? { ...base, bound: result.bound } : base;
}
