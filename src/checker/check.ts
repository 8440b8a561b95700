/**
 * The check: one scenario under one variant, on either engine, through one contract. The engine
 * (`explore`, or `exploreReference` over `xstate/graph`) takes the serving adapter's options
 * (the events to offer, the symmetry of interchangeable requests, the properties as invariants)
 * and returns an `ExploreResult`; `scenarioResult` turns that into the Outcome's
 * `ScenarioResult`. Nothing else builds a result.
 */
import { properties } from '../../invariants/index.ts';
import type { Property } from '../../invariants/property.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import {
  type ExploreOptions,
  type ExploreResult,
  explore,
  exploreAsync,
  exploreReference,
  type StateProjection,
  type WorkerRun,
} from '../engine/index.ts';
import {
  type CheckOptions,
  type EngineName,
  type ResolvedCheckOptions,
  resolveCheckOptions,
} from './checkOptions.ts';
import type { ScenarioResult } from './outcome.ts';
import { plainState, ResultRecorder, scenarioResult } from './scenarioResult.ts';
import { servingEvents } from './serving/servingEvents.ts';
import { servingAmple } from './serving/servingPor.ts';
import { servingReads } from './serving/servingReads.ts';
import { servingOrbitSize, servingSymmetry } from './serving/servingSymmetry.ts';
import { eventFilter } from './serving/unreachableEvents.ts';

type ServingExplore = ExploreOptions<ServingContext, ExternalEvent>;

/** The selected properties, by name, in registry order; throws on an unknown name. */
function selectedProperties(names: readonly string[] | undefined): [string, Property][] {
  return (names ?? Object.keys(properties)).map((name) => {
    const prop = properties[name];
    if (!prop) throw new Error(`unknown property ${name}`);
    return [name, prop];
  });
}

/**
 * A check set up for an engine: its resolved options, the machine it explores, the engine's
 * options, the builder.
 */
interface PreparedCheck {
  readonly options: ResolvedCheckOptions;
  readonly machine: ServingMachine;
  readonly explore: ServingExplore;
  readonly finish: (result: ExploreResult<ServingContext, ExternalEvent>) => ScenarioResult;
}

/** What a worker thread needs to build the same check (`workerRun`). */
interface WorkerArg {
  readonly scenario: Scenario;
  readonly variant: Variant;
  readonly options: Pick<CheckOptions, 'properties' | 'symmetry'>;
}

/**
 * The machine and engine options of a check, built on a worker thread of the parallel search
 * (`WorkerRecipe`) exactly as `prepare` builds them on the main thread.
 */
export function workerRun(arg: WorkerArg): WorkerRun<ServingContext, ExternalEvent> {
  const run = prepare(arg.scenario, arg.variant, arg.options);
  return { machine: run.machine, options: run.explore };
}

/** The worker threads of a check (none when `options.workers` is 1). */
function workersOf(
  scenario: Scenario,
  variant: Variant,
  options: ResolvedCheckOptions,
): Pick<ServingExplore, 'workers'> {
  if (options.workers <= 1) return {};
  const arg: WorkerArg = {
    scenario,
    variant,
    options: {
      ...(options.properties ? { properties: options.properties } : {}),
      symmetry: options.symmetry,
    },
  };
  return {
    workers: {
      count: options.workers,
      ...options.workerLevels,
      recipe: { module: import.meta.url, name: 'workerRun', arg },
    },
  };
}

function prepare(scenario: Scenario, variant: Variant, given: CheckOptions): PreparedCheck {
  const options = resolveCheckOptions(given);
  const selected = selectedProperties(options.properties);
  const rids = scenario.requests.map((r) => r.id);
  // Coverage follows one request's moves; a symmetry representative renames requests.
  const recorder = new ResultRecorder(rids, !options.symmetry);
  // The engine checks every invariant on one state in turn: project it once.
  let seen: StateProjection<ServingContext> | undefined;
  let projected = plainState({ value: {}, context: {} as ServingContext });
  const plain = (s: StateProjection<ServingContext>) => {
    if (s !== seen) {
      seen = s;
      projected = plainState(s);
    }
    return projected;
  };
  // Each invariant also notes, until it first fires, whether its property's trigger fired.
  const invariants = (kind: Property['kind']) =>
    Object.fromEntries(
      selected
        .filter(([, p]) => p.kind === kind)
        .map(([name, p]) => [
          name,
          (s: StateProjection<ServingContext>) => {
            const state = plain(s);
            recorder.trigger(name, p, state);
            return p(state);
          },
        ]),
    );
  const fast = options.engine === 'fast';
  const machine = machineFor(scenario, variant, options);
  // The fast engine is not offered events no transition can take (`eventFilter`): the same
  // states, transitions and verdicts, without their selections. Not with `por`, whose ample
  // sets are chosen by the events offered, nor with a machine of the caller's, whose guards
  // may not be the ones their names say; the reference engine is offered every event.
  const filter =
    fast && !options.por && options.machine === undefined
      ? eventFilter(machine, scenario, variant)
      : null;
  const exploreOptions: ServingExplore = {
    events: servingEvents(rids, filter),
    invariants: invariants('state'),
    terminalInvariants: invariants('terminal'),
    ...(fast ? { reads: servingReads(scenario, selected) } : {}),
    ...searchBounds(options),
    ...(fast && Number.isFinite(options.maxMemory) ? { maxMemory: options.maxMemory } : {}),
    ...(fast && options.signal ? { signal: options.signal } : {}),
    ...(fast && options.exact ? { exact: true } : {}),
    ...(fast && options.order === 'depth' ? { order: 'depth' as const } : {}),
    ...(fast && options.symmetry
      ? { symmetry: servingSymmetry(scenario), orbitSize: servingOrbitSize(scenario) }
      : {}),
    ...(fast && options.por ? ampleOf(scenario) : {}),
    ...(fast && options.onProgress ? { onProgress: options.onProgress } : {}),
    onState: (s) => recorder.state(s),
    // The recorder reads each state during the call and keeps nothing of it.
    keepsStates: false,
    journal: recorder,
    ...workersOf(scenario, variant, options),
    ...(recorder.coverage
      ? {
          onMove: (
            from: StateProjection<ServingContext>,
            e: ExternalEvent,
            to: StateProjection<ServingContext>,
          ) => recorder.move(from, e, to),
        }
      : {}),
  };
  const finish = (result: ExploreResult<ServingContext, ExternalEvent>) =>
    scenarioResult({ scenario, variant: variant.name, options, selected, recorder, result });
  return { options, machine, explore: exploreOptions, finish };
}

/**
 * The partial-order reduction of `scenario` as the engine takes it: none (no option) when the
 * scenario's requests share bootstrap rooms, where no step is local (`servingAmple`).
 */
function ampleOf(scenario: Scenario): Pick<ServingExplore, 'ample'> {
  const ample = servingAmple(scenario);
  return ample ? { ample } : {};
}

/** The state and time bounds of `options` as the engines take them: absent when unbounded. */
export function searchBounds(
  options: Pick<ResolvedCheckOptions, 'maxStates' | 'maxSeconds'>,
): Pick<ServingExplore, 'maxStates' | 'maxSeconds'> {
  return {
    ...(Number.isFinite(options.maxStates) ? { maxStates: options.maxStates } : {}),
    ...(Number.isFinite(options.maxSeconds) ? { maxSeconds: options.maxSeconds } : {}),
  };
}

/** The machine a check of `scenario` under `variant` explores: `options.machine`, or its own. */
export function machineFor(
  scenario: Scenario,
  variant: Variant,
  options: Pick<CheckOptions, 'machine'>,
): ServingMachine {
  return options.machine ?? createServingMachine(scenario, variant);
}

/** Runs `engine` on `machine` to the end: the fast engine, or the `xstate/graph` reference. */
export function exploreWith(
  engine: EngineName,
  machine: ServingMachine,
  options: ServingExplore,
): ExploreResult<ServingContext, ExternalEvent> {
  return engine === 'fast'
    ? explore<ServingContext, ExternalEvent>(machine, options)
    : exploreReference<ServingContext, ExternalEvent>(machine, options);
}

/**
 * Checks `scenario` under `variant`: explores every reachable state with the chosen engine
 * (`options.engine`, fast by default), evaluates every selected property (state properties on
 * every state, terminal ones where nothing can move) and every witness, and returns one
 * `ScenarioResult` with the shortest counterexample of each violated property. Defaults are
 * `checkDefaults`: unbounded, so the verdict is `ok` or `violation` unless a bound you set
 * stops the search (`incomplete`). Throws on an unknown property name and on fast-engine
 * options given to the reference engine.
 */
export function check(
  scenario: Scenario,
  variant: Variant,
  options: CheckOptions = {},
): ScenarioResult {
  const run = prepare(scenario, variant, options);
  return run.finish(exploreWith(run.options.engine, run.machine, run.explore));
}

/**
 * `check` for a caller that can wait: the fast engine runs in time slices, so that aborting
 * `options.signal` (on Ctrl-C, say) stops it with what it explored (`incomplete`, bound
 * `interrupted`); the reference engine runs to its end as `check` does. Same result as `check`
 * otherwise.
 */
export async function checkAsync(
  scenario: Scenario,
  variant: Variant,
  options: CheckOptions = {},
): Promise<ScenarioResult> {
  const run = prepare(scenario, variant, options);
  return run.finish(
    run.options.engine === 'fast'
      ? await exploreAsync<ServingContext, ExternalEvent>(run.machine, run.explore)
      : exploreWith(run.options.engine, run.machine, run.explore),
  );
}
