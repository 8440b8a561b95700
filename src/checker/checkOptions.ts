/**
 * What a check takes, and the one place its defaults live. `check`, `all`, `report`,
 * `state-space`, the catalogue and the library API all resolve their options here, so a bound
 * means the same everywhere.
 */
import type { ServingMachine } from '../../machines/servingMachine.ts';
import { didYouMean } from '../didYouMean.ts';
import type { Progress } from '../engine/index.ts';

/** The exploration engines: `fast` (`src/engine`) and `graph` (`xstate/graph`, the reference). */
export const engineNames = ['fast', 'graph'] as const;

/** An exploration engine's name. */
export type EngineName = (typeof engineNames)[number];

/** The search orders of the fast engine. */
export const searchOrders = ['breadth', 'depth'] as const;

/** A search order: a level at a time, or a path at a time (fast engine). */
export type SearchOrder = (typeof searchOrders)[number];

/** What to check, with which engine, and how far to look. Every field is optional. */
export interface CheckOptions {
  /** Property names to check. @default every property */
  readonly properties?: readonly string[];
  /** Witnesses the scenario must reach for a pass to count. @default none */
  readonly requiredWitnesses?: readonly string[];
  /** @default 'fast' */
  readonly engine?: EngineName;
  /** Stop (incomplete) once this many distinct states are stored. @default unbounded */
  readonly maxStates?: number;
  /** Stop (incomplete) after this many seconds. @default unbounded */
  readonly maxSeconds?: number;
  /**
   * Fast engine: stop (incomplete) once the V8 heap in use and the array buffers allocated (the
   * fingerprint table, the packed queue) exceed this many MiB. @default unbounded
   */
  readonly maxMemory?: number;
  /** Fast engine: explore one representative per class of interchangeable requests. @default false */
  readonly symmetry?: boolean;
  /** Fast engine: store full state keys instead of 64-bit fingerprints. @default false */
  readonly exact?: boolean;
  /**
   * Fast engine: partial-order reduction (`servingAmple`): where a request is offered only
   * steps that are local to it and invisible, expand that request alone. Keeps every verdict,
   * witness and shortest trace; stores fewer states, so `states` counts the reduced space. Not
   * with `workers` above 1 or a `machine` of your own (the reduction rests on the built-in
   * machine's measured footprints). @default false
   */
  readonly por?: boolean;
  /** Fast engine: the search order; traces are shortened either way. @default 'breadth' */
  readonly order?: SearchOrder;
  /** Called about once a second while the fast engine searches. */
  readonly onProgress?: (p: Progress) => void;
  /** Fast engine: stops the search (incomplete, bound `interrupted`) once aborted. */
  readonly signal?: AbortSignal;
  /**
   * Fast engine, `checkAsync`: worker threads that expand the breadth-first frontier. They start
   * with the search and take over once they have started and a level holds 512 states, or at
   * the first level of 4,096 states in any case (see `workerLevels`). The result is the same as
   * with one thread. Needs breadth-first order, fingerprints (not `exact`) and no `machine`;
   * `check`, which cannot wait, runs on one thread. @default 1
   */
  readonly workers?: number;
  /**
   * With `workers` above 1 (see the engine's `WorkerOptions`): the workers start with the
   * search, or once it has stored `start` states (@default 0), and take over at the first level
   * of `early` states (@default 512) once they have started, or of `from` states (@default
   * 4096) in any case; the main thread sends a worker `chunk` states at a time (@default 1024).
   * Tuning only; the result does not depend on them.
   */
  readonly workerLevels?: WorkerLevels;
  /**
   * The machine to explore instead of the one `createServingMachine(scenario, variant)` builds:
   * one made for the same scenario, with implementations replaced through `machine.provide` (a
   * seeded bug). The result is still reported under the variant's name. @default none
   */
  readonly machine?: ServingMachine;
}

/** `CheckOptions` with every default filled in: what the checker actually runs with. */
export interface ResolvedCheckOptions {
  readonly properties: readonly string[] | undefined;
  readonly requiredWitnesses: readonly string[];
  readonly engine: EngineName;
  readonly maxStates: number;
  readonly maxSeconds: number;
  readonly maxMemory: number;
  readonly symmetry: boolean;
  readonly exact: boolean;
  readonly por: boolean;
  readonly order: SearchOrder;
  readonly onProgress: ((p: Progress) => void) | undefined;
  readonly signal: AbortSignal | undefined;
  readonly machine: ServingMachine | undefined;
  readonly workers: number;
  readonly workerLevels: WorkerLevels;
}

/**
 * When the worker threads start and take over, and how much they are sent at a time
 * (`CheckOptions`; the engine's `WorkerOptions` says what each means).
 */
export interface WorkerLevels {
  readonly from?: number;
  readonly early?: number;
  readonly chunk?: number;
  /** States stored before the workers start; 0, the default, starts them with the search. */
  readonly start?: number;
}

/**
 * The defaults, stated once: unbounded, fast engine, no symmetry, no partial-order reduction,
 * fingerprints, breadth first.
 */
export const checkDefaults = {
  engine: 'fast',
  maxStates: Number.POSITIVE_INFINITY,
  maxSeconds: Number.POSITIVE_INFINITY,
  maxMemory: Number.POSITIVE_INFINITY,
  symmetry: false,
  exact: false,
  por: false,
  order: 'breadth',
  workers: 1,
  workerLevels: {},
} as const satisfies Partial<ResolvedCheckOptions>;

/**
 * What the command line's `--workers auto` (its default) runs with: the machine's cores, at
 * most `most`, started once a search has stored `start` states (`WorkerLevels.start`). Below
 * that a search runs on one thread and pays nothing for them; on two cores, two workers took
 * longer than one thread on a space of 93,213 states and 1.7–1.8× less time on one of two
 * million (docs/performance.md, "Several cores").
 */
export const autoWorkers = { most: 8, start: 250_000 } as const;

/** An option that does not combine with every other: by its `CheckOptions` name. */
export type LimitedOption =
  | 'engine'
  | 'symmetry'
  | 'exact'
  | 'order'
  | 'por'
  | 'maxMemory'
  | 'machine';

/** Options set together that cannot be: which rule they break, and the options it names. */
export interface OptionConflict {
  /**
   * `graph`: fast-engine options given to the reference engine, which would ignore them;
   * `workers`: `workers` above 1 with what needs one thread (the options named, `engine` for
   * the graph engine); `machine`: `por` with a machine of your own.
   */
  readonly rule: 'graph' | 'workers' | 'machine';
  readonly options: readonly LimitedOption[];
}

/** Why the reference engine cannot honour each fast-engine option, said of that engine. */
export const referenceEngineLacks: Readonly<Partial<Record<LimitedOption, string>>> = {
  symmetry: 'stores full snapshots',
  exact: 'stores full snapshots',
  order: 'is breadth first',
  por: 'expands every state in full',
  maxMemory: 'has no memory bound',
};

/** The options of `o` that are set away from their default, among `names`, in that order. */
function setAmong(o: ResolvedCheckOptions, names: readonly LimitedOption[]): LimitedOption[] {
  const set: Record<LimitedOption, boolean> = {
    engine: o.engine === 'graph',
    symmetry: o.symmetry,
    exact: o.exact,
    order: o.order === 'depth',
    por: o.por,
    maxMemory: Number.isFinite(o.maxMemory),
    machine: o.machine !== undefined,
  };
  return names.filter((n) => set[n]);
}

/**
 * The rules `o` breaks, each once, in the order the command line reports them (graph, workers,
 * machine); empty when every option combines. The one statement of which options combine:
 * `resolveCheckOptions` and the command line's flags both read it.
 */
export function optionConflicts(o: ResolvedCheckOptions): OptionConflict[] {
  const rules: [OptionConflict['rule'], boolean, LimitedOption[]][] = [
    ['graph', o.engine === 'graph', ['symmetry', 'exact', 'order', 'por', 'maxMemory']],
    ['workers', o.workers > 1, ['engine', 'exact', 'order', 'por', 'machine']],
    ['machine', o.por, ['machine']],
  ];
  return rules.flatMap(([rule, applies, names]) => {
    const options = applies ? setAmong(o, names) : [];
    return options.length > 0 ? [{ rule, options }] : [];
  });
}

/** How the library's errors name each option. */
const optionText: Readonly<Record<LimitedOption, string>> = {
  engine: 'the graph engine',
  symmetry: 'symmetry',
  exact: 'exact',
  order: 'order depth',
  por: 'por',
  maxMemory: 'maxMemory',
  machine: 'a machine of your own',
};

/** The library's error message for `c`. */
function conflictMessage(c: OptionConflict): string {
  const names = c.options.map((n) => optionText[n]).join(', ');
  if (c.rule === 'graph') return `${names} need the fast engine; the reference engine is graph`;
  if (c.rule === 'workers')
    return `workers run one breadth-first fingerprint search; not with ${names}`;
  return "por rests on the built-in machine's measured footprints; not with a machine of your own";
}

/** `options` with every default filled in, unchecked (see `resolveCheckOptions`). */
export function withCheckDefaults(options: CheckOptions = {}): ResolvedCheckOptions {
  return {
    properties: options.properties,
    requiredWitnesses: options.requiredWitnesses ?? [],
    engine: options.engine ?? checkDefaults.engine,
    maxStates: options.maxStates ?? checkDefaults.maxStates,
    maxSeconds: options.maxSeconds ?? checkDefaults.maxSeconds,
    maxMemory: options.maxMemory ?? checkDefaults.maxMemory,
    symmetry: options.symmetry ?? checkDefaults.symmetry,
    exact: options.exact ?? checkDefaults.exact,
    por: options.por ?? checkDefaults.por,
    order: options.order ?? checkDefaults.order,
    onProgress: options.onProgress,
    signal: options.signal,
    machine: options.machine,
    workers: options.workers ?? checkDefaults.workers,
    workerLevels: options.workerLevels ?? checkDefaults.workerLevels,
  };
}

/** Every option `CheckOptions` names (the keys `withCheckDefaults` fills in). */
const checkOptionNames: readonly string[] = Object.keys(withCheckDefaults());

/**
 * Fills in every default of `options`. Throws a plain `Error` naming an option `CheckOptions`
 * does not have (a JavaScript caller's `search: 'depth'` would otherwise run breadth first,
 * silently; an option set to undefined counts as not given), when `workers` or a
 * `workerLevels` value is not a whole number of at least 1 (0 for `start`), and, naming the options, when
 * options are combined that do not combine (`optionConflicts`): fast-engine options (`symmetry`,
 * `exact`, `order: 'depth'`, `por`, `maxMemory`) with the reference engine, which would
 * otherwise silently ignore them; `workers` above 1 with what needs one thread; `por` with a
 * `machine` of your own.
 */
export function resolveCheckOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || checkOptionNames.includes(name)) continue;
    throw new Error(
      `unknown check option ${name}; ${didYouMean(name, checkOptionNames, 'accepted')}`,
    );
  }
  const resolved = withCheckDefaults(options);
  for (const [name, n] of Object.entries(resolved.workerLevels)) {
    const least = name === 'start' ? 0 : 1;
    if (!Number.isInteger(n) || n < least) {
      throw new Error(`workerLevels.${name} must be a whole number of at least ${least}, not ${n}`);
    }
  }
  if (!Number.isInteger(resolved.workers) || resolved.workers < 1) {
    throw new Error(`workers must be a whole number of at least 1, not ${resolved.workers}`);
  }
  const [conflict] = optionConflicts(resolved);
  if (conflict) throw new Error(conflictMessage(conflict));
  return resolved;
}
