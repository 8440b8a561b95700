/**
 * The baseline of the fast engine's speed target: `xstate/graph`'s `getAdjacencyMap` with its
 * defaults (every event type offered for every request in every state, the default
 * `JSON.stringify({ value, context })` state key). `bench/engine.ts` times it beside kvcheck's
 * reference engine and the fast engine, on the same machines in the same run.
 */
import { getAdjacencyMap } from 'xstate/graph';
import { externalEventTypes } from '../machines/events.ts';
import type { Scenario } from '../machines/scenario.ts';
import { createServingMachine } from '../machines/servingMachine.ts';
import type { Variant } from '../machines/variants.ts';

/** Distinct states and stored transitions of one exploration. */
export interface Counted {
  readonly states: number;
  readonly transitions: number;
}

/**
 * `getAdjacencyMap` with its defaults on `scenario` × `variant`. With `maxExpanded`, states past
 * that many are stored but not expanded (`stopWhen`, as kvcheck's reference engine bounds
 * itself), so the count includes the unexpanded frontier of a breadth-first prefix.
 */
export function xstateGraphDefaults(
  scenario: Scenario,
  variant: Variant,
  maxExpanded = Number.POSITIVE_INFINITY,
): Counted {
  const events = scenario.requests.flatMap((r) =>
    externalEventTypes.map((type) => ({ type, rid: r.id })),
  );
  let seen = 0;
  const map = getAdjacencyMap(createServingMachine(scenario, variant), {
    events,
    ...(Number.isFinite(maxExpanded) ? { stopWhen: () => ++seen > maxExpanded } : {}),
  });
  const entries = Object.values(map);
  const transitions = entries.reduce((k, e) => k + Object.keys(e.transitions).length, 0);
  return { states: entries.length, transitions };
}
