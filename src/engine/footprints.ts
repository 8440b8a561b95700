/**
 * Footprints: every step of a machine's reachable space, enabled or not, with the words of its
 * vector context that the step's guards and in-place updates read and wrote
 * (`Interpreter.stepRecorded`, `wordRecorder.ts`) and the state nodes it changed. This is the
 * dependency information a partial-order reduction rests on, measured instead of assumed: the
 * serving machine's reduction (`src/checker/serving/servingPor.ts`) checks its declarations
 * against it. A step's result is a function of the words it read (the machine is
 * deterministic), so a footprint recorded in one state holds in every state that agrees with it
 * on those words. Slow (a `Proxy` per step): for self-checks on small spaces, not for search.
 */
import type { AnyStateMachine, EventObject } from 'xstate';
import { compileMachine, nodePaths } from './compiledMachine.ts';
import { EngineSnapshot, type EngineState, viewsOf } from './configView.ts';
import { offeredEvents } from './events.ts';
import { initialState } from './initialState.ts';
import { Interpreter } from './interpreter.ts';
import type { EventSource, SnapshotLike } from './types.ts';
import { isVectorContext } from './vectorContext.ts';
import { type WordLog, wordLog } from './wordRecorder.ts';

/** One recorded step (`visitFootprints`). */
export interface Footprint<TContext, TEvent extends EventObject> {
  readonly state: SnapshotLike<TContext>;
  readonly event: TEvent;
  /** The successor, or null when the event is not enabled. */
  readonly next: SnapshotLike<TContext> | null;
  /** The words the step read (guards included) and wrote. */
  readonly words: WordLog;
  /** Keys of the top-level state nodes whose subtree's configuration the step changed. */
  readonly regions: ReadonlySet<string>;
}

/** Options of `visitFootprints`. */
export interface FootprintOptions<TContext, TEvent extends EventObject> {
  /** Events to offer in each state, as `ExploreOptions.events`. */
  readonly events?: EventSource<TContext, TEvent>;
  /** Stop (return false) once this many states are stored. @default Infinity */
  readonly maxStates?: number;
}

/**
 * Visits every step of `machine`'s reachable space, breadth first, offering `options.events`
 * in each state (stored by exact key: configuration and words), and calls `visit` with each
 * step's footprint. The machine's context must be a vector context. Returns true when the whole
 * space was visited, false when `maxStates` stopped it.
 */
export function visitFootprints<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: FootprintOptions<TContext, TEvent>,
  visit: (step: Footprint<TContext, TEvent>) => void,
): boolean {
  const m = compileMachine(machine);
  const views = viewsOf(m);
  const interp = new Interpreter(m, views);
  // For each state node, the key of its top-level ancestor (itself at the top); '' for the root.
  const top = nodePaths(m).map((path) => path.split('.', 1)[0] as string);
  const start = initialState(machine, m, views, undefined);
  if (!isVectorContext(start.context)) throw new TypeError('footprints need a vector context');
  const key = (s: EngineState) =>
    `${s.view.key}:${(s.context as { words: Int32Array }).words.join(',')}`;
  const seen = new Set([key(start)]);
  const max = options.maxStates ?? Number.POSITIVE_INFINITY;
  let level = [start];
  while (level.length > 0) {
    const next: EngineState[] = [];
    for (const state of level) {
      const snap = new EngineSnapshot<TContext>(state.view, state.context as TContext);
      for (const e of offeredEvents(options.events, state.view, snap)) {
        const event = e as TEvent;
        const words = wordLog();
        const enabled = interp.stepRecorded(state, event, words);
        const to = interp.stepTo(state, event);
        if (enabled !== (to !== null)) throw new Error(`footprints: ${event.type} recorded apart`);
        const regions = new Set<string>();
        if (to) {
          const [a, b] = [state.view.flags, to.view.flags];
          for (let n = 0; n < a.length; n++) if (a[n] !== b[n]) regions.add(top[n] as string);
        }
        const after = to && new EngineSnapshot<TContext>(to.view, to.context as TContext);
        visit({ state: snap, event, next: after, words, regions });
        if (!to || seen.has(key(to))) continue;
        if (seen.size >= max) return false;
        seen.add(key(to));
        next.push(to);
      }
    }
    level = next;
  }
  return true;
}
