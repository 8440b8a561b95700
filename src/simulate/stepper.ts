/**
 * The successor function random simulation walks with: the fast engine's interpreter (the same
 * compiled machine, macrostep semantics and offered events as `check`), one state and one event
 * at a time, with no visited-state store.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import { compileMachine } from '../engine/compiledMachine.ts';
import { EngineSnapshot, type EngineState, viewsOf } from '../engine/configView.ts';
import { initialState } from '../engine/initialState.ts';
import { Interpreter } from '../engine/interpreter.ts';
import { servingEvents } from '../engine/servingEvents.ts';

/** A state of the composed machine as the engine holds it (configuration view and context). */
export type SimState = EngineState;

/** Steps the composed serving machine of one scenario under one variant. */
export class ServingStepper {
  private readonly interp: Interpreter;
  private readonly events: (s: EngineSnapshot<unknown>) => readonly ExternalEvent[];
  /** The initial state, as XState computes it. */
  readonly initial: SimState;

  constructor(scenario: Scenario, variant: Variant) {
    const machine = createServingMachine(scenario, variant);
    const compiled = compileMachine(machine);
    const views = viewsOf(compiled);
    this.interp = new Interpreter(compiled, views);
    this.events = servingEvents(scenario.requests.map((r) => r.id));
    this.initial = initialState(machine, compiled, views, undefined);
  }

  /** The events offered in `state` (one per event type an active node of a request handles). */
  offered(state: SimState): readonly ExternalEvent[] {
    return this.events(new EngineSnapshot(state.view, state.context));
  }

  /** The state after `event`, or null when `event` is not enabled in `state`. */
  step(state: SimState, event: ExternalEvent): SimState | null {
    return this.interp.stepTo(state, event);
  }

  /** Whether no offered event is enabled in `state`. */
  isTerminal(state: SimState): boolean {
    return this.offered(state).every((e) => this.step(state, e) === null);
  }
}

/** The plain state properties and traces read. */
export function servingStateOf(state: SimState): ServingState {
  return {
    value: state.view.value as unknown as ServingState['value'],
    context: state.context as ServingState['context'],
  };
}
