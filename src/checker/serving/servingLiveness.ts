/**
 * The serving model's leads-to properties, checked under weak fairness per request region
 * (`checkLiveness` in the engine):
 * - `eventuallyAnswered`: every dispatched request is eventually answered by the router;
 * - `pagesEventuallyFreed`: every page a request holds, on either node, is eventually freed.
 *
 * Each request region (router, prefill, transfer, decode) and each request's timer is one
 * fairness group: a run in which one of them stays enabled forever must eventually move it.
 * Faults and client aborts (`TRANSFER_FAIL`, `CLIENT_ABORT`) belong to no group: a run need never
 * take them. Liveness runs without symmetry reduction (a permutation would have to map the
 * fairness groups of one request onto another's) and only an exhaustive run decides it.
 */
import type { ServingState } from '../../../invariants/vocabulary.ts';
import { regionAt } from '../../../invariants/vocabulary.ts';
import type { ServingContext } from '../../../machines/context.ts';
import type { ExternalEvent } from '../../../machines/events.ts';
import type { RequestId, Scenario } from '../../../machines/scenario.ts';
import { createServingMachine, type ServingMachine } from '../../../machines/servingMachine.ts';
import { requestView } from '../../../machines/servingView.ts';
import type { Variant } from '../../../machines/variants.ts';
import {
  checkLiveness,
  type Lasso,
  type LeadsTo,
  type LivenessResult,
  type SnapshotLike,
} from '../../engine/index.ts';
import type { LassoTrace } from '../outcome.ts';
import { plainState } from '../scenarioResult.ts';
import { traceFrom } from '../stepChanges.ts';
import { servingEvents } from './servingEvents.ts';
import { eventFilter } from './unreachableEvents.ts';

/** The region (or timer) each event moves; null: a fault or client action, never fair. */
const regionOfEvent: Readonly<Record<ExternalEvent['type'], string | null>> = {
  DISPATCH: 'router',
  ROUTER_REPLY: 'router',
  CLIENT_ABORT: null,
  PREFILL_INTAKE: 'prefill',
  PREFILL_BOOTSTRAPPED: 'prefill',
  PREFILL_FORWARD: 'prefill',
  SEND_KV: 'prefill',
  PREFILL_RELEASE: 'prefill',
  PREFILL_ERROR: null,
  KV_WRITE_DONE: 'transfer',
  TRANSFER_FAIL: null,
  DECODE_INTAKE: 'decode',
  DECODE_PREALLOC: 'decode',
  DECODE_COMMIT: 'decode',
  DECODE_TRANSFER_FAILED: 'decode',
  DECODE_STEP: 'decode',
  DECODE_FINISH: 'decode',
  DECODE_RETRACT: 'decode',
  DECODE_RESUME: 'decode',
  TIMEOUT: 'timer',
  LEASE_EXPIRED: 'timer',
};

/** The weak-fairness group of `event`: `rid.region` (`a1.decode`), or null for none. */
export function servingFairness(event: ExternalEvent): string | null {
  const region = regionOfEvent[event.type];
  return region === null ? null : `${event.rid}.${region}`;
}

/** The leads-to properties' statements, as the reports print them. */
export const livenessStatements: Readonly<Record<string, string>> = {
  eventuallyAnswered: 'Every dispatched request is eventually answered by the router.',
  pagesEventuallyFreed: 'Every page a request holds, on either node, is eventually freed.',
};

function state(s: SnapshotLike<ServingContext>): ServingState {
  return s as unknown as ServingState;
}

/** The serving model's leads-to properties for the requests `rids`, one obligation per request. */
export function servingLeadsTo(
  rids: readonly RequestId[],
): Record<string, LeadsTo<ServingContext>> {
  return {
    eventuallyAnswered: {
      obligations: rids.map((rid) => (s) => regionAt(state(s), rid, 'router', 'awaiting')),
    },
    pagesEventuallyFreed: {
      obligations: rids.map((rid) => (s) => {
        const r = requestView(s.context, rid);
        return r.pageCount('prefill') + r.pageCount('decode') > 0;
      }),
    },
  };
}

/** Options of `checkServingLiveness`. */
export interface ServingLivenessOptions {
  /** Stop after this many states: the result is then `incomplete`. */
  readonly maxStates?: number;
  /** Stop after this many seconds: the result is then `incomplete`. */
  readonly maxSeconds?: number;
  /** A machine to check instead of the scenario's (a mutant, in tests). */
  readonly machine?: ServingMachine;
}

/**
 * Checks `eventuallyAnswered` and `pagesEventuallyFreed` on `scenario` under `variant`. The
 * built machine is not offered the events no transition can take (`eventFilter`, as `check`
 * does): a disabled event adds no transition, so the graph, and with it the result, is the
 * same. A machine of the caller's is offered every event (its guards may not be what their
 * names say).
 */
export function checkServingLiveness(
  scenario: Scenario,
  variant: Variant,
  options: ServingLivenessOptions = {},
): LivenessResult<ServingContext, ExternalEvent> {
  const rids = scenario.requests.map((r) => r.id);
  const machine = options.machine ?? createServingMachine(scenario, variant);
  const filter = options.machine ? null : eventFilter(machine, scenario, variant);
  return checkLiveness<ServingContext, ExternalEvent>(machine, {
    events: servingEvents(rids, filter),
    leadsTo: servingLeadsTo(rids),
    fairness: servingFairness,
    ...(options.maxStates !== undefined ? { maxStates: options.maxStates } : {}),
    ...(options.maxSeconds !== undefined ? { maxSeconds: options.maxSeconds } : {}),
  });
}

/** The serving model's liveness result: its states and events are the composed machine's. */
export type ServingLivenessResult = LivenessResult<ServingContext, ExternalEvent>;

/** One scenario × variant's liveness check, with the scenario's request ids in order. */
export interface ServingLivenessRun {
  readonly scenario: string;
  readonly variant: string;
  /** The scenario's request ids: a lasso's `obligation` indexes them. */
  readonly rids: readonly RequestId[];
  readonly result: ServingLivenessResult;
}

/** `checkServingLiveness` on `scenario` under `variant`, named and with its request ids. */
export function servingLivenessRun(
  scenario: Scenario,
  variant: Variant,
  options: ServingLivenessOptions = {},
): ServingLivenessRun {
  return {
    scenario: scenario.name,
    variant: variant.name,
    rids: scenario.requests.map((r) => r.id),
    result: checkServingLiveness(scenario, variant, options),
  };
}

/** What stays open forever, per leads-to property, for request `rid`. */
const openForever: Readonly<Record<string, (rid: string) => string>> = {
  eventuallyAnswered: (rid) => `${rid} is dispatched and never answered by the router`,
  pagesEventuallyFreed: (rid) => `${rid} holds pages that are never freed`,
};

/**
 * The message of a lasso of property `name` for request `rid` whose steps `loop + 1` to `steps`
 * repeat: what stays open, and which steps repeat.
 */
export function lassoMessage(name: string, rid: string, loop: number, steps: number): string {
  const open = openForever[name]?.(rid) ?? `${name} stays open for ${rid}`;
  const cycle =
    loop + 1 === steps ? `step ${steps} repeats` : `steps ${loop + 1} to ${steps} repeat`;
  return `${open}: ${cycle} forever, in a run fair to every request region`;
}

/**
 * A lasso of the serving model told as a `LassoTrace`: each step with its actor, tenant, change
 * records and regions (as counterexamples are told), `loop` as the lasso's, and `rid` the
 * request (of `rids`, the scenario's in order) whose obligation the cycle leaves open.
 */
export function lassoTrace(
  lasso: Lasso<ServingContext, ExternalEvent>,
  rids: readonly string[],
): LassoTrace {
  const rid = rids[lasso.obligation] ?? '?';
  const path = lasso.trace.map((t) => ({ event: t.event, state: plainState(t.state) }));
  const message = lassoMessage(lasso.name, rid, lasso.loop, lasso.trace.length);
  return { ...traceFrom(plainState(lasso.initial), path, message), loop: lasso.loop, rid };
}
