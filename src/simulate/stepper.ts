/**
 * The successor function random simulation walks with: the engine's `stepper` over the composed
 * serving machine (the same compiled machine, macrostep semantics and offered events as
 * `check`), one state and one event at a time, with no visited-state store.
 */
import type { ServingState } from '../../invariants/vocabulary.ts';
import type { ServingContext } from '../../machines/context.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import { servingEvents } from '../checker/serving/servingEvents.ts';
import { type SnapshotLike, type Stepper, stepper } from '../engine/index.ts';

/** A state of the composed machine as the engine's stepper hands it out. */
export type SimState = SnapshotLike<ServingContext>;

/** Steps the composed serving machine of one scenario under one variant. */
export class ServingStepper {
  private readonly engine: Stepper<ServingContext, ExternalEvent>;
  /** The initial state, as XState computes it. */
  readonly initial: SimState;

  constructor(scenario: Scenario, variant: Variant) {
    this.engine = stepper<ServingContext, ExternalEvent>(createServingMachine(scenario, variant), {
      events: servingEvents(scenario.requests.map((r) => r.id)),
    });
    this.initial = this.engine.initial;
  }

  /** The events offered in `state` (one per event type an active node of a request handles). */
  offered(state: SimState): readonly ExternalEvent[] {
    return this.engine.offered(state);
  }

  /** The state after `event`, or null when `event` is not enabled in `state`. */
  step(state: SimState, event: ExternalEvent): SimState | null {
    return this.engine.step(state, event);
  }

  /** Whether no offered event is enabled in `state`. */
  isTerminal(state: SimState): boolean {
    return this.offered(state).every((e) => this.step(state, e) === null);
  }
}

/** The plain state properties and traces read. */
export function servingStateOf(state: SimState): ServingState {
  return { value: state.value as unknown as ServingState['value'], context: state.context };
}
