/**
 * Checks a scenario with the fast engine (`src/engine`) and returns the same `ScenarioResult`
 * as the reference engine: verdicts, shortest traces told step by step, witnesses and lifecycle
 * coverage, plus the engine's own figures (bytes per state, collision probability).
 */

import { properties, witnesses } from '../../invariants/index.ts';
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import type {
  ExploreOptions,
  ExploreResult,
  Progress,
  StateProjection,
  Violation,
} from '../engine/index.ts';
import { explore, exploreAsync } from '../engine/index.ts';
import type { CheckOptions } from './checkScenario.ts';
import type { LifecycleMove, PropertyResult, ScenarioResult, Trace } from './outcome.ts';
import { witnessResultsOf } from './outcome.ts';
import { servingEvents } from './serving/servingEvents.ts';
import { servingOrbitSize, servingSymmetry } from './serving/servingSymmetry.ts';
import { regionSnapshot, traceFrom } from './stepChanges.ts';

/** Options of the fast engine beyond the reference engine's. */
export interface FastCheckOptions extends CheckOptions {
  /** Explore one representative per class of interchangeable requests. @default false */
  readonly symmetry?: boolean;
  /** Store full state keys instead of 64-bit fingerprints. @default false */
  readonly exact?: boolean;
  /**
   * Search order (see `ExploreOptions.order`): `depth` holds a path instead of a level, for
   * spaces a breadth-first queue cannot hold; traces are still shortened. @default 'breadth'
   */
  readonly order?: 'breadth' | 'depth';
  /** Stop (incomplete) once the V8 heap in use exceeds this many MiB (see `explore`). */
  readonly maxMemory?: number;
  /** Called about once a second. */
  readonly onProgress?: (p: Progress) => void;
  /** Stops the search (`incomplete`, bound `interrupted`) once aborted; see `ExploreOptions`. */
  readonly signal?: AbortSignal;
}

function plain(p: StateProjection<ServingContext>): ServingState {
  return { value: p.value as unknown as ServingState['value'], context: p.context };
}

function traceOf(v: Violation<ServingContext, ExternalEvent>, message: string): Trace {
  const path = v.trace.map((t) => ({ event: t.event, state: plain(t.state) }));
  const trace = traceFrom(plain(v.initial), path, message);
  return v.shortest === false ? { ...trace, shortest: false } : trace;
}

/** Interns each request's four region paths as a small number, for coverage. */
class LifecycleIndex {
  private readonly ids = new Map<string, number>();
  readonly tuples: Record<string, string>[] = [];
  private readonly byState: number[][] = [];

  record(index: number, s: ServingState, rids: readonly string[]): void {
    const regions = regionSnapshot(s);
    this.byState[index] = rids.map((rid) => {
      const tuple = regions[rid] ?? {};
      const key = JSON.stringify(tuple);
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.tuples.length;
        this.ids.set(key, id);
        this.tuples.push({ ...tuple });
      }
      return id;
    });
  }

  of(index: number, r: number): number | undefined {
    return this.byState[index]?.[r];
  }
}

type FastResult = ExploreResult<ServingContext, ExternalEvent>;

/** A check set up for `explore`: its machine and options, and what turns the result into a
 * `ScenarioResult` (the callbacks record witnesses and coverage on the way). */
interface PreparedCheck {
  readonly machine: ServingMachine;
  readonly options: ExploreOptions<ServingContext, ExternalEvent>;
  readonly finish: (result: FastResult) => ScenarioResult;
}

/**
 * Checks `scenario` under `variant` with the fast engine. Coverage is recorded only without
 * symmetry (a representative renames requests, so its moves are not one request's moves).
 */
export function checkScenarioFast(
  scenario: Scenario,
  variant: Variant,
  options: FastCheckOptions = {},
): ScenarioResult {
  const run = prepare(scenario, variant, options);
  return run.finish(explore(run.machine, run.options));
}

/**
 * `checkScenarioFast` in time slices (`exploreAsync`), so that timers and signal handlers run
 * while it searches: aborting `options.signal` ends it `incomplete` with bound `interrupted`
 * and what it explored. Same result as `checkScenarioFast` otherwise.
 */
export async function checkScenarioFastAsync(
  scenario: Scenario,
  variant: Variant,
  options: FastCheckOptions = {},
): Promise<ScenarioResult> {
  const run = prepare(scenario, variant, options);
  return run.finish(await exploreAsync(run.machine, run.options));
}

function prepare(scenario: Scenario, variant: Variant, options: FastCheckOptions): PreparedCheck {
  const machine = createServingMachine(scenario, variant);
  const rids = scenario.requests.map((r) => r.id);
  const names = options.properties ?? Object.keys(properties);
  const selected = names.map((name) => {
    const prop = properties[name];
    if (!prop) throw new Error(`unknown property ${name}`);
    return [name, prop] as const;
  });
  const invariants = (kind: 'state' | 'terminal') =>
    Object.fromEntries(
      selected
        .filter(([, p]) => p.kind === kind)
        .map(([name, p]) => [name, (s: StateProjection<ServingContext>) => p(plain(s))]),
    );
  const reached = new Set<string>();
  const lifecycle = new LifecycleIndex();
  const moves = new Set<string>();
  const recordCoverage = !options.symmetry;
  const waiting = new Map<number, [number, ExternalEvent][]>();
  const addMove = (from: number, event: ExternalEvent, to: number) => {
    const r = rids.indexOf(event.rid);
    const a = lifecycle.of(from, r);
    const b = lifecycle.of(to, r);
    if (a !== undefined && b !== undefined) moves.add(`${event.type} ${a} ${b}`);
  };
  const exploreOptions: ExploreOptions<ServingContext, ExternalEvent> = {
    events: servingEvents(rids),
    invariants: invariants('state'),
    terminalInvariants: invariants('terminal'),
    ...(options.maxStates !== undefined ? { maxStates: options.maxStates } : {}),
    ...(options.maxSeconds !== undefined ? { maxSeconds: options.maxSeconds } : {}),
    ...(options.maxMemory !== undefined ? { maxMemory: options.maxMemory } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(options.exact ? { exact: true } : {}),
    ...(options.order === 'depth' ? { order: 'depth' as const } : {}),
    ...(options.symmetry
      ? { symmetry: servingSymmetry(scenario), orbitSize: servingOrbitSize(scenario) }
      : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    onState: (s, index) => {
      const state = plain(s);
      for (const [name, w] of Object.entries(witnesses)) {
        if (!reached.has(name) && w(state)) reached.add(name);
      }
      if (!recordCoverage) return;
      lifecycle.record(index, state, rids);
      for (const [from, event] of waiting.get(index) ?? []) addMove(from, event, index);
      waiting.delete(index);
    },
    ...(recordCoverage
      ? {
          onTransition: (from: number, event: ExternalEvent, to: number) => {
            // A new target is announced after the transition that found it.
            if (lifecycle.of(to, 0) !== undefined) addMove(from, event, to);
            else waiting.set(to, [...(waiting.get(to) ?? []), [from, event]]);
          },
        }
      : {}),
  };
  const finish = (result: FastResult): ScenarioResult => {
    const violated = new Map(result.violations.map((v) => [v.name, v]));
    const complete = result.status !== 'incomplete' && result.bound === undefined;
    const propertyResults: PropertyResult[] = selected.map(([name, prop]) => {
      const v = violated.get(name);
      if (!v) return { name, statement: prop.statement, status: complete ? 'holds' : 'unknown' };
      const last = v.trace.at(-1)?.state ?? v.initial;
      const message = prop.explain(plain(last)) ?? `${name} violated`;
      return { name, statement: prop.statement, status: 'violated', trace: traceOf(v, message) };
    });
    const witnessResults = witnessResultsOf((name) => reached.has(name), options.requiredWitnesses);
    // Sorted by their JSON text, as the reference engine sorts them.
    const coverage: LifecycleMove[] = [...moves]
      .map((key): LifecycleMove => {
        const [event = '', a = '0', b = '0'] = key.split(' ');
        return {
          event,
          before: lifecycle.tuples[Number(a)] ?? {},
          after: lifecycle.tuples[Number(b)] ?? {},
        };
      })
      .map((m) => [JSON.stringify(m), m] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, m]) => m);
    const base: ScenarioResult = {
      scenario: scenario.name,
      variant: variant.name,
      status: result.status,
      stats: {
        states: result.stats.states,
        ...(result.stats.unreducedStates !== undefined
          ? { unreducedStates: result.stats.unreducedStates }
          : {}),
        transitions: result.stats.transitions,
        depth: result.stats.depth,
        ms: result.stats.ms,
      },
      properties: propertyResults,
      witnesses: witnessResults,
      coverage,
      engine: {
        name: 'fast',
        symmetry: options.symmetry === true,
        exact: options.exact === true,
        search: options.order ?? 'breadth',
        bytesPerState: result.stats.bytesPerState,
        ...(result.collisionProbability !== undefined
          ? { collisionProbability: result.collisionProbability }
          : {}),
      },
    };
    return result.bound ? { ...base, bound: result.bound } : base;
  };
  return { machine, options: exploreOptions, finish };
}
