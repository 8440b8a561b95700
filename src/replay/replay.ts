/**
 * Replaying a counterexample under another variant: the trace's events, one by one, through
 * XState's own `transition()` on the machine the variant builds. A replay ends in one of three
 * ways. It is blocked where the variant disables the step's event. It diverges where the event
 * is enabled but takes a region somewhere the trace did not go (the variant's guard chose
 * another transition). Otherwise it runs to the end, and the property is read on the last state.
 * A blocked or diverging step names the transitions of the statechart (`chartGraph`) for the
 * variant that decided it, with their guards.
 */
import { initialTransition, transition } from 'xstate';
import { properties } from '../../invariants/index.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { type RequestRegion, requestRegions } from '../../machines/regionIds.ts';
import type { Scenario } from '../../machines/scenario.ts';
import { createServingMachine } from '../../machines/servingMachine.ts';
import type { Variant } from '../../machines/variants.ts';
import type { RegionSnapshot } from '../checker/outcome.ts';
import { plainState } from '../checker/scenarioResult.ts';
import { regionSnapshot } from '../checker/stepChanges.ts';
import type { ChartEdge } from '../export/chartGraph.ts';
import { chartGraph } from '../export/statechart.ts';

/** A trace step as replay reads it: the event, its request, and the regions after it. */
export interface ReplayStep {
  readonly event: string;
  readonly rid: string;
  readonly regions: RegionSnapshot;
}

/** A transition of one region that decided a step, with its guard as text. */
export interface DecidingEdge {
  readonly region: RequestRegion;
  readonly source: string;
  readonly target: string;
  readonly guard?: string;
}

/** Where and why a replay stopped before the end, or how it ended. */
export type ReplayOutcome =
  | {
      /** The variant disables the step's event in the state the trace reached. */
      readonly kind: 'blocked';
      readonly step: number;
      readonly event: string;
      readonly rid: string;
      /** The transitions on the event from the request's regions, none of which could fire. */
      readonly edges: readonly DecidingEdge[];
    }
  | {
      /** The event is enabled, but a region goes elsewhere than in the trace. */
      readonly kind: 'diverged';
      readonly step: number;
      readonly event: string;
      readonly rid: string;
      readonly region: RequestRegion;
      /** Where the trace's region went, and where it goes under the variant. */
      readonly expected: string;
      readonly actual: string;
      /** The transition the variant took, when the statechart names one. */
      readonly taken?: DecidingEdge;
    }
  | {
      /** Every step replayed; `violated`: the property fails in the last state. */
      readonly kind: 'completed';
      readonly steps: number;
      readonly violated: boolean;
    };

/** The transitions on `event` from `path` (or an ancestor of it) in `region`'s chart. */
function edgesOn(
  region: RequestRegion,
  variant: Variant,
  path: string,
  event: string,
): DecidingEdge[] {
  const chart = chartGraph(region, variant);
  const within = (e: ChartEdge) => path === e.source || path.startsWith(`${e.source}.`);
  return chart.edges
    .filter((e) => e.event === event && within(e))
    .map((e) => ({
      region,
      source: e.source,
      target: e.target,
      ...(e.guard ? { guard: e.guard } : {}),
    }));
}

/** The region of `rid` that differs between two snapshots, the event's own request first. */
function firstDifference(
  expected: RegionSnapshot,
  actual: RegionSnapshot,
  rid: string,
): { rid: string; region: RequestRegion } | undefined {
  const rids = [rid, ...Object.keys(expected).filter((r) => r !== rid)];
  for (const r of rids) {
    for (const region of requestRegions) {
      if (expected[r]?.[region] !== actual[r]?.[region]) return { rid: r, region };
    }
  }
  return undefined;
}

/**
 * Replays `steps` on `scenario` under `variant` and says how far they go (see `ReplayOutcome`);
 * `property` is read on the last state when every step replays. Throws on an unknown property.
 */
export function replayTrace(
  scenario: Scenario,
  variant: Variant,
  steps: readonly ReplayStep[],
  property: string,
): ReplayOutcome {
  const holds = properties[property];
  if (!holds) throw new Error(`unknown property ${property}`);
  const machine = createServingMachine(scenario, variant);
  let [snapshot] = initialTransition(machine);
  for (const [i, step] of steps.entries()) {
    const before = regionSnapshot(plainState(snapshot));
    const event = { type: step.event, rid: step.rid } as ExternalEvent;
    const [next] = transition(machine, snapshot, event);
    const at = { step: i + 1, event: step.event, rid: step.rid };
    if (next === snapshot) {
      const edges = requestRegions.flatMap((region) =>
        edgesOn(region, variant, before[step.rid]?.[region] ?? '', step.event),
      );
      return { kind: 'blocked', ...at, edges };
    }
    const after = regionSnapshot(plainState(next));
    const differs = firstDifference(step.regions, after, step.rid);
    if (differs) {
      const { region } = differs;
      const actual = after[differs.rid]?.[region] ?? '';
      const taken = edgesOn(region, variant, before[differs.rid]?.[region] ?? '', step.event).find(
        (e) => actual === e.target || actual.startsWith(`${e.target}.`),
      );
      return {
        kind: 'diverged',
        ...at,
        rid: differs.rid,
        region,
        expected: step.regions[differs.rid]?.[region] ?? '',
        actual,
        ...(taken ? { taken } : {}),
      };
    }
    snapshot = next;
  }
  return { kind: 'completed', steps: steps.length, violated: !holds(plainState(snapshot)) };
}

/** The outcome in one sentence, for the terminal and the report. */
export function replayText(outcome: ReplayOutcome, variant: string, property: string): string {
  switch (outcome.kind) {
    case 'blocked': {
      const guards = outcome.edges.map(
        (e) => `${e.region} ${e.source} → ${e.target}${e.guard ? ` [${e.guard}]` : ''}`,
      );
      const why = guards.length > 0 ? `; no guard holds: ${guards.join('; ')}` : '';
      return `blocked at step ${outcome.step}: ${outcome.event} ${outcome.rid} is not enabled under ${variant}${why}`;
    }
    case 'diverged': {
      const guard = outcome.taken?.guard ? ` (${outcome.taken.guard})` : '';
      return `blocked at step ${outcome.step}: ${outcome.event} ${outcome.rid} → ${outcome.region} ${outcome.actual} under ${variant}${guard}, where the trace went to ${outcome.region} ${outcome.expected}`;
    }
    case 'completed':
      return outcome.violated
        ? `runs to the end (${outcome.steps} steps) under ${variant}: ${property} is still violated`
        : `runs to the end (${outcome.steps} steps) under ${variant}: ${property} holds in the last state`;
  }
}
