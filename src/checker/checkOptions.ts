/**
 * What a check takes, and the one place its defaults live. `check`, `all`, `report`,
 * `state-space`, the catalogue and the library API all resolve their options here, so a bound
 * means the same everywhere.
 */
import type { ServingMachine } from '../../machines/servingMachine.ts';
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
  /** Fast engine: stop (incomplete) once the V8 heap in use exceeds this many MiB. @default unbounded */
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
   * Fast engine, `checkAsync`: worker threads that expand the breadth-first frontier once a
   * level holds 4,096 states (smaller spaces stay on one thread). The result is the same as
   * with one thread. Needs breadth-first order, fingerprints (not `exact`) and no `machine`;
   * `check`, which cannot wait, runs on one thread. @default 1
   */
  readonly workers?: number;
  /**
   * With `workers` above 1: the level size at which the workers take over (@default 4096) and
   * the states the main thread sends a worker at a time (@default 1024). Tuning only; the
   * result does not depend on them.
   */
  readonly workerLevels?: { readonly from?: number; readonly chunk?: number };
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
  readonly workerLevels: { readonly from?: number; readonly chunk?: number };
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
 * Fills in every default of `options`. Throws a plain `Error` naming the option when a fast-engine
 * option is combined with the reference engine (`symmetry`, `exact`, `order: 'depth'`, `por`,
 * `maxMemory`), which would otherwise be silently ignored, when `workers` is not a whole
 * number of at least 1 or, above 1, is combined with what needs one thread, and when `por` is
 * combined with a `machine` of your own.
 */
export function resolveCheckOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  const resolved: ResolvedCheckOptions = {
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
  for (const [name, n] of Object.entries(resolved.workerLevels)) {
    if (!Number.isInteger(n) || n < 1) {
      throw new Error(`workerLevels.${name} must be a whole number of at least 1, not ${n}`);
    }
  }
  if (!Number.isInteger(resolved.workers) || resolved.workers < 1) {
    throw new Error(`workers must be a whole number of at least 1, not ${resolved.workers}`);
  }
  if (resolved.workers > 1) {
    const oneThread = [
      resolved.engine === 'graph' && 'the graph engine',
      resolved.exact && 'exact',
      resolved.order === 'depth' && 'order depth',
      resolved.por && 'por',
      resolved.machine && 'a machine of your own',
    ].filter((x): x is string => typeof x === 'string');
    if (oneThread.length > 0) {
      throw new Error(
        `workers run one breadth-first fingerprint search; not with ${oneThread.join(', ')}`,
      );
    }
  }
  if (resolved.engine === 'graph') {
    const fastOnly = [
      resolved.symmetry && 'symmetry',
      resolved.exact && 'exact',
      resolved.order === 'depth' && 'order depth',
      resolved.por && 'por',
      Number.isFinite(resolved.maxMemory) && 'maxMemory',
    ].filter((x): x is string => typeof x === 'string');
    if (fastOnly.length > 0) {
      throw new Error(`${fastOnly.join(', ')} need the fast engine; the reference engine is graph`);
    }
  }
  if (resolved.por && resolved.machine) {
    throw new Error(
      "por rests on the built-in machine's measured footprints; not with a machine of your own",
    );
  }
  return resolved;
}
