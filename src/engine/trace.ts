/**
 * Shortest traces from the store's parent links. The events are replayed from the concrete
 * initial state with the engine's interpreter. Under symmetry reduction the stored event was
 * applied to a representative, not to the concrete state the replay has reached; when it does
 * not lead to a state whose representative is the next one stored, every offered event is
 * tried instead, so the trace is always a real run of the machine, one event per level.
 */
import type { EventObject } from 'xstate';
import type { EngineState } from './configView.ts';
import { offeredEvents } from './events.ts';
import type { Search } from './search.ts';
import type { StateProjection, TraceStep } from './types.ts';

function projection<C>(s: EngineState): StateProjection<C> {
  return { value: s.view.value, context: s.context as C };
}

function stepTo<C, E extends EventObject>(
  search: Search<C, E>,
  from: EngineState,
  event: EventObject,
  index: number,
): EngineState | null {
  const succ = search.interp.stepTo(from, event);
  if (succ === null) return null;
  const c = search.canonical(succ);
  return search.store.isAt(c.view, c.context, index) ? succ : null;
}

function anyStepTo<C, E extends EventObject>(
  search: Search<C, E>,
  from: EngineState,
  index: number,
): { event: EventObject; state: EngineState } {
  for (const event of offeredEvents(search.options.events, from.view, search.snapshot(from))) {
    const state = stepTo(search, from, event, index);
    if (state) return { event, state };
  }
  throw new Error(`trace reconstruction failed at state ${index}: is the symmetry sound?`);
}

/** The initial state and the shortest trace to stored state `target`. */
export function rebuildTrace<C, E extends EventObject>(
  search: Search<C, E>,
  initial: EngineState,
  target: number,
): { initial: StateProjection<C>; trace: TraceStep<C, E>[] } {
  const chain: number[] = [];
  for (let i = target; i > 0; i = search.store.parentOf(i)) chain.push(i);
  chain.reverse();
  const trace: TraceStep<C, E>[] = [];
  let state = initial;
  for (const index of chain) {
    const stored = search.events.at(search.store.eventOf(index));
    const direct = stepTo(search, state, stored, index);
    const step = direct ? { event: stored, state: direct } : anyStepTo(search, state, index);
    trace.push({ event: step.event as E, state: projection(step.state) });
    state = step.state;
  }
  return { initial: projection(initial), trace };
}
