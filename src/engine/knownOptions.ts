/**
 * The options `explore`, `exploreAsync` and `exploreReference` accept, so that a key
 * `ExploreOptions` does not have is refused by name instead of ignored.
 */
import type { EventObject } from 'xstate';
import type { ExploreOptions } from './types.ts';

/** Every option `ExploreOptions` has (the compiler keeps the list whole and exact). */
const exploreOptionNames: readonly string[] = Object.keys({
  events: true,
  invariants: true,
  terminalInvariants: true,
  reads: true,
  maxStates: true,
  maxSeconds: true,
  maxMemory: true,
  signal: true,
  exact: true,
  symmetry: true,
  orbitSize: true,
  input: true,
  ample: true,
  stopAtFirstViolation: true,
  order: true,
  packFrom: true,
  onProgress: true,
  progressIntervalMs: true,
  onState: true,
  keepsStates: true,
  onTransition: true,
  onMove: true,
  workers: true,
  journal: true,
} satisfies Record<keyof ExploreOptions<unknown, EventObject>, true>);

/**
 * Throws a `TypeError` naming an option `ExploreOptions` does not have (one set to undefined
 * counts as not given): a JavaScript caller's misspelt option would otherwise be ignored. Both
 * engines call it (`Search`, `exploreReference`).
 */
export function refuseUnknown(options: object): void {
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || exploreOptionNames.includes(name)) continue;
    throw new TypeError(
      `explore: unknown option ${name}; accepted: ${exploreOptionNames.join(', ')}`,
    );
  }
}
