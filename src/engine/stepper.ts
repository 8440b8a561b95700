/**
 * Stepping a machine one state and one event at a time, with `explore`'s semantics (the same
 * compiled machine, macrostep and offered events) and no visited-state store: for random walks,
 * replays and shrinking, where a search would hold too much.
 */
import type { AnyStateMachine, EventObject } from 'xstate';
import { compileMachine } from './compiledMachine.ts';
import { EngineSnapshot, viewsOf } from './configView.ts';
import { offeredEvents } from './events.ts';
import { initialState } from './initialState.ts';
import { Interpreter } from './interpreter.ts';
import type { EventSource, SnapshotLike } from './types.ts';

/** Options of `stepper`; all optional. */
export interface StepperOptions<TContext, TEvent extends EventObject> {
  /** Events to offer in each state, as `ExploreOptions.events`. @default the handled types, bare */
  readonly events?: EventSource<TContext, TEvent>;
  /** Input for the machine's context factory, as `ExploreOptions.input`. */
  readonly input?: unknown;
}

/**
 * A machine's successor function. States are the snapshots it hands out (plain `value` and
 * `context`, never mutated); `offered` and `step` accept only those.
 */
export interface Stepper<TContext, TEvent extends EventObject> {
  /** The initial state, as XState computes it (`initialTransition(machine, input)`). */
  readonly initial: SnapshotLike<TContext>;
  /** The events offered in `state`, enabled or not, in the order `explore` tries them. */
  offered(state: SnapshotLike<TContext>): readonly TEvent[];
  /**
   * The state after `event` in `state`, or null when `event` is not enabled there (exactly when
   * `explore` counts no transition for it). Throws for a state this stepper did not hand out.
   */
  step(state: SnapshotLike<TContext>, event: TEvent): SnapshotLike<TContext> | null;
}

function own<C>(state: SnapshotLike<C>): EngineSnapshot<C> {
  if (state instanceof EngineSnapshot) return state;
  throw new TypeError('stepper: a state must be one that the stepper handed out');
}

/**
 * The successor function of `machine` (see `Stepper`), its context and event types given
 * explicitly. Compiles the machine once, as `explore` does, and throws
 * `UnsupportedFeatureError` where `explore` would.
 */
export function stepper<TContext, TEvent extends EventObject>(
  machine: AnyStateMachine,
  options: StepperOptions<TContext, TEvent> = {},
): Stepper<TContext, TEvent> {
  const compiled = compileMachine(machine);
  const views = viewsOf(compiled);
  const interp = new Interpreter(compiled, views);
  const start = initialState(machine, compiled, views, options.input);
  return {
    initial: new EngineSnapshot<TContext>(start.view, start.context as TContext),
    offered: (state) => offeredEvents(options.events, own(state).view, state) as readonly TEvent[],
    step: (state, event) => {
      const next = interp.stepTo(own(state), event);
      return next && new EngineSnapshot<TContext>(next.view, next.context as TContext);
    },
  };
}
