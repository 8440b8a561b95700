/**
 * `explore`: the fast exhaustive engine. It compiles an XState v5 machine (inside the subset
 * `readMachine` accepts) once into per-node transition tables, then searches breadth first over
 * (configuration, context) states with the engine's own interpreter, which reproduces XState
 * 5.33.3's macrostep semantics and calls the machine's guard and action implementations
 * directly. Visited states are 64-bit fingerprints (or exact keys); counterexamples are
 * shortest and rebuilt by replay.
 */
import type { AnyStateMachine, EventObject } from 'xstate';
import { compileMachine } from './compiledMachine.ts';
import { collisionProbability } from './fingerprint.ts';
import { initialState } from './initialState.ts';
import { Search } from './search.ts';
import { rebuildTrace } from './trace.ts';
import type { ExploreOptions, ExploreResult, Violation } from './types.ts';

/**
 * Explores every state of `machine` reachable with the offered events (see
 * `ExploreOptions.events`), checking `invariants` on each and `terminalInvariants` where no
 * event is enabled. State identity is the active configuration, the done status and the
 * context's JSON text. With `symmetry` off, the states are exactly those `getAdjacencyMap`
 * finds with the same events when it keys snapshots by value, context and status; its default
 * key omits the status, which matters only for a machine whose root completes and is then left
 * by a transition (a done and an active snapshot with equal value and context, which it merges
 * and this engine keeps apart). Returns `violation` with one shortest trace per violated
 * invariant, else `incomplete` if `maxStates`, `maxSeconds` or `maxMemory` stopped the search,
 * else `ok`.
 *
 * Throws `UnsupportedFeatureError` (`unsupported: <feature> at #<state id>`) for a machine
 * outside the subset (see `index.ts`), and whatever a guard or action throws.
 */
export function explore<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: ExploreOptions<TContext, TEvent> = {},
): ExploreResult<TContext, TEvent> {
  const compiled = compileMachine(machine);
  const search = new Search<TContext, TEvent>(compiled, options);
  const initial = initialState(machine, compiled, search.views, options.input);
  search.run(initial);
  const violations: Violation<TContext, TEvent>[] = [];
  for (const check of [...search.invariants, ...search.terminal]) {
    if (check.at === -1) continue;
    violations.push({ name: check.name, ...rebuildTrace(search, initial, check.at) });
  }
  const states = search.store.size;
  const status = violations.length > 0 ? 'violation' : search.bound ? 'incomplete' : 'ok';
  const result: ExploreResult<TContext, TEvent> = {
    status,
    stats: {
      states,
      ...(options.symmetry && options.orbitSize ? { unreducedStates: search.unreduced } : {}),
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
