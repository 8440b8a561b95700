/**
 * Random simulation: seeded random walks through the composed serving machine, for scenarios
 * whose state space exhaustive search cannot finish. Each walk starts in the initial state and,
 * at each step, takes one event chosen uniformly among the enabled ones (offered events are
 * tried in random order until one is enabled), until no event is enabled or the depth bound is
 * reached. Every selected state property is checked on every state a walk visits; terminal
 * properties on the state where a walk ends with no event enabled.
 *
 * The first `walksShrunkPerProperty` walks that violate a property are kept whole, each is shrunk
 * (`shrink.ts`) and the best trace is reported. All runs are made whatever is found, so the counts depend only on the seed, the scenario, the
 * variant and the bounds: the same seed replays the same walks, traces and figures.
 *
 * The result is a `ScenarioResult` (the Outcome of `check`) with status `violation` or
 * `incomplete`, never `ok`: a random search that finds nothing proves nothing. Properties
 * without a counterexample are `unknown`. `stats.states` counts states visited (with repeats),
 * `stats.transitions` the steps taken and `stats.depth` the deepest walk. `simulation` adds the
 * seed, runs per second, the distribution of walk depths and what shrinking did.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { properties, witnesses } from '../../invariants/index.ts';
import type { Property } from '../../invariants/property.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import type { Variant } from '../../machines/variants.ts';
import { type PropertyResult, type ScenarioResult, witnessResultsOf } from '../checker/outcome.ts';
import { traceFrom } from '../checker/stepChanges.ts';
import { type DepthDistribution, depthDistribution } from './depths.ts';
import { better, requestsOf, shrink } from './shrink.ts';
import { ServingStepper, type SimState, servingStateOf } from './stepper.ts';

/** Default number of walks. */
export const defaultRuns = 1000;
/** Default depth bound: steps per walk. */
export const defaultDepth = 1000;
/** The largest seed accepted (seeds are unsigned 32-bit integers). */
export const maxSeed = 2 ** 32 - 1;

/** Options of `simulate`. */
export interface SimulateOptions {
  /** Walks to make. @default defaultRuns */
  readonly runs?: number;
  /** Steps after which a walk stops. @default defaultDepth */
  readonly depth?: number;
  /** Seed of the walks, 0 to `maxSeed`. @default a random seed (reported in the result) */
  readonly seed?: number;
  /** Property names to check. @default every property */
  readonly properties?: readonly string[];
  /** Witnesses the scenario must reach for a run to count. @default none */
  readonly requiredWitnesses?: readonly string[];
  /** Called about once a second with the walks made so far. */
  readonly onProgress?: (p: { readonly runs: number; readonly runsPerSecond: number }) => void;
}

/** What shrinking did for one violated property. */
export interface ShrinkReport {
  readonly property: string;
  /** The walk whose shrunk trace is reported (1-based). */
  readonly run: number;
  /** Violating walks shrunk (the first few), the best result reported. */
  readonly walks: number;
  /** Steps and requests of that walk up to its first violating state. */
  readonly walkSteps: number;
  readonly walkRequests: number;
  /** Steps and requests of the shrunk trace. */
  readonly steps: number;
  readonly requests: number;
  /** Candidate traces replayed while shrinking. */
  readonly replays: number;
}

/** What a simulation adds to the Outcome of `check`. */
export interface SimulationInfo {
  /** The seed: `--seed` with it replays this result exactly. */
  readonly seed: number;
  readonly runs: number;
  /** The depth bound. */
  readonly depthLimit: number;
  /** Steps taken over all walks. */
  readonly steps: number;
  /** Walks per second, shrinking excluded. */
  readonly runsPerSecond: number;
  /** Milliseconds spent shrinking. */
  readonly shrinkMs: number;
  readonly depths: DepthDistribution;
  readonly shrinks: readonly ShrinkReport[];
}

/** A simulation's result: a `ScenarioResult` whose status is `violation` or `incomplete`. */
export interface SimulationResult extends ScenarioResult {
  readonly simulation: SimulationInfo;
}

/** Violating walks kept per property; each is shrunk and the best trace is reported. */
export const walksShrunkPerProperty = 3;

/** A fresh random seed for a simulation without `seed`. */
export function randomSeed(): number {
  return Math.floor(Math.random() * (maxSeed + 1));
}

interface Found {
  readonly run: number;
  /** The whole walk (shrinking may find a trace with fewer requests later in it). */
  readonly events: readonly ExternalEvent[];
  /** Steps up to the first violating state. */
  readonly violatedAt: number;
}

function selected(names: readonly string[] | undefined): [string, Property][] {
  return (names ?? Object.keys(properties)).map((name) => {
    const p = properties[name];
    if (!p) throw new Error(`unknown property ${name}`);
    return [name, p];
  });
}

/** One enabled successor of `state` chosen uniformly, or null when none is enabled. */
function randomStep(
  stepper: ServingStepper,
  rng: RandomGenerator,
  state: SimState,
): { event: ExternalEvent; state: SimState } | null {
  const remaining = [...stepper.offered(state)];
  while (remaining.length > 0) {
    const i = uniformInt(rng, 0, remaining.length - 1);
    const event = remaining[i] as ExternalEvent;
    const next = stepper.step(state, event);
    if (next !== null) return { event, state: next };
    remaining[i] = remaining[remaining.length - 1] as ExternalEvent;
    remaining.pop();
  }
  return null;
}

/**
 * Simulates `scenario` under `variant` with random walks (see the module comment). Throws on an
 * unknown property name or a seed outside `0..maxSeed`.
 */
export function simulate(
  scenario: Scenario,
  variant: Variant,
  options: SimulateOptions = {},
): SimulationResult {
  const runs = options.runs ?? defaultRuns;
  const depthLimit = options.depth ?? defaultDepth;
  const seed = options.seed ?? randomSeed();
  if (!Number.isInteger(seed) || seed < 0 || seed > maxSeed) {
    throw new Error(`seed must be an integer from 0 to ${maxSeed}, got ${seed}`);
  }
  const checked = selected(options.properties);
  const stateProps = checked.filter(([, p]) => p.kind === 'state');
  const terminalProps = checked.filter(([, p]) => p.kind === 'terminal');
  const stepper = new ServingStepper(scenario, variant);
  const rng = xoroshiro128plus(seed | 0);
  const found = new Map<string, Found[]>();
  const reached = new Set<string>();
  const depths: number[] = [];
  let terminal = 0;
  let steps = 0;
  const started = performance.now();
  let lastProgress = started;

  const visit = (state: SimState, run: number, events: readonly ExternalEvent[], end: boolean) => {
    const s = servingStateOf(state);
    for (const [name, w] of Object.entries(witnesses)) {
      if (!reached.has(name) && w(s)) reached.add(name);
    }
    for (const [name, p] of end ? terminalProps : stateProps) {
      const walks = found.get(name) ?? [];
      if (walks.length >= walksShrunkPerProperty || walks.at(-1)?.run === run || p(s)) continue;
      walks.push({ run, events, violatedAt: events.length });
      found.set(name, walks);
    }
  };

  for (let run = 1; run <= runs; run++) {
    let state = stepper.initial;
    const events: ExternalEvent[] = [];
    visit(state, run, events, false);
    let ended = false;
    while (events.length < depthLimit) {
      const next = randomStep(stepper, rng, state);
      if (next === null) {
        ended = true;
        break;
      }
      state = next.state;
      events.push(next.event);
      visit(state, run, events, false);
    }
    if (!ended) ended = stepper.isTerminal(state);
    if (ended) {
      terminal++;
      visit(state, run, events, true);
    }
    steps += events.length;
    depths.push(events.length);
    const now = performance.now();
    if (options.onProgress && now - lastProgress >= 1000) {
      lastProgress = now;
      options.onProgress({ runs: run, runsPerSecond: Math.round((run / (now - started)) * 1000) });
    }
  }
  const walkMs = performance.now() - started;

  const shrinks: ShrinkReport[] = [];
  const propertyResults: PropertyResult[] = checked.map(([name, p]) => {
    const walks = found.get(name);
    if (!walks) return { name, statement: p.statement, status: 'unknown' };
    const shrunk = walks.map((w) => ({ walk: w, ...shrink(stepper, p, w.events, depthLimit) }));
    const { walk, trace } = shrunk.reduce((a, b) => (better(b.trace, a.trace) ? b : a));
    shrinks.push({
      property: name,
      run: walk.run,
      walks: walks.length,
      walkSteps: walk.violatedAt,
      walkRequests: requestsOf(walk.events.slice(0, walk.violatedAt)),
      steps: trace.events.length,
      requests: requestsOf(trace.events),
      replays: shrunk.reduce((n, s) => n + s.replays, 0),
    });
    const last = trace.states.at(-1) ?? stepper.initial;
    const message = p.explain(servingStateOf(last)) ?? `${name} violated`;
    const path = trace.events.map((event, i) => ({
      event,
      state: servingStateOf(trace.states[i] as SimState),
    }));
    return {
      name,
      statement: p.statement,
      status: 'violated',
      trace: traceFrom(servingStateOf(stepper.initial), path, message),
    };
  });
  const ms = performance.now() - started;
  const witnessResults = witnessResultsOf((name) => reached.has(name), options.requiredWitnesses);
  const distribution = depthDistribution(depths, terminal);
  return {
    scenario: scenario.name,
    variant: variant.name,
    status: found.size > 0 ? 'violation' : 'incomplete',
    stats: {
      states: steps + runs,
      transitions: steps,
      depth: distribution.max,
      ms: Math.round(ms),
    },
    properties: propertyResults,
    witnesses: witnessResults,
    coverage: [],
    simulation: {
      seed,
      runs,
      depthLimit,
      steps,
      runsPerSecond: Math.round((runs / Math.max(walkMs, 1)) * 1000 * 10) / 10,
      shrinkMs: Math.round(ms - walkMs),
      depths: distribution,
      shrinks,
    },
  };
}
