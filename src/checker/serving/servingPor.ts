/**
 * Partial-order reduction for kvcheck's composed serving machine: the ample sets it offers the
 * engine (`ExploreOptions.ample`; `CheckOptions.por`, `check --por`), and the self-check that
 * the footprints they rest on hold (`check --por-check`).
 *
 * A request's steps are local when they read and write only words of its own block that no
 * other request's step reads or writes (its private words) and change only its own regions.
 * Such a step is independent of every step of every other request: neither can enable,
 * disable or change the other, and the two orders reach the same state. When every event a
 * request is offered is of a local type, its enabled events form an ample set (C1): any run
 * from the state that avoids them consists of other requests' steps, which leave the request's
 * offered events, their guards and their effects as they were. If, besides, no property,
 * witness or trigger can tell the states before and after a local step apart (C2), expanding
 * that request alone preserves every verdict. The engine adds C0 and the cycle proviso C3.
 *
 * Which types are local was measured, not assumed: `checkServingPor` records the footprint of
 * every step of a scenario's reachable space (`visitFootprints`). On the built-in and catalogue
 * scenarios the steps that stay inside their own request block are `DISPATCH`,
 * `PREFILL_INTAKE`, `DECODE_INTAKE` and `ROUTER_REPLY` (every other step reads or writes a pool,
 * a budget, a slot table or another request's words). Of these, `DECODE_INTAKE` writes
 * `decodeLen`, which other requests' preallocation reads for decode's budget, and
 * `PREFILL_INTAKE` and `ROUTER_REPLY` write what properties read (the rejection flags, the
 * client's reply). That leaves `DISPATCH`: it reads no word, writes its own `dispatched`, and
 * moves its own regions out of `idle`. With shared bootstrap rooms it also reads whether
 * another request of its room is in flight, so there is no reduction then.
 *
 * What it buys is small: every request is dispatched first, in scenario order, so the states in
 * which some request is still undispatched while others run are not stored (`incident-3` ×
 * `fixed`: 90,431 states instead of 93,213). Most of a kvcheck space comes from steps that are
 * dependent on purpose: allocations and frees on one pool, whose order decides which pages a
 * request gets. docs/performance.md gives the measurements.
 */
import { properties, witnesses } from '../../../invariants/index.ts';
import type { ServingState } from '../../../invariants/vocabulary.ts';
import type { ServingContext } from '../../../machines/context.ts';
import type { ExternalEvent } from '../../../machines/events.ts';
import { F, layoutOf } from '../../../machines/layout.ts';
import { roomsCollide, type Scenario } from '../../../machines/scenario.ts';
import { createServingMachine } from '../../../machines/servingMachine.ts';
import type { Variant } from '../../../machines/variants.ts';
import { type Footprint, type SnapshotLike, visitFootprints } from '../../engine/index.ts';
import { plainState } from '../scenarioResult.ts';
import { servingEvents } from './servingEvents.ts';

/** Event types whose steps are local to their request and invisible (see the module doc). */
export const servingLocalEvents: ReadonlySet<ExternalEvent['type']> = new Set(['DISPATCH']);

/** Request-block fields that local steps may read and write, and no other request's step may touch. */
export const servingPrivateFields: readonly number[] = [F.dispatched];

type Ample = (
  state: SnapshotLike<ServingContext>,
  offered: readonly ExternalEvent[],
) => readonly (readonly ExternalEvent[])[];

/** The candidates of `offered`: per request, in order, its events when all are `local`. */
function candidates(
  offered: readonly ExternalEvent[],
  local: ReadonlySet<string>,
): ExternalEvent[][] {
  const out: ExternalEvent[][] = [];
  let group: ExternalEvent[] = [];
  let allLocal = true;
  for (let i = 0; i <= offered.length; i++) {
    const e = offered[i];
    if (e === undefined || (group.length > 0 && e.rid !== group[0]?.rid)) {
      if (group.length > 0 && allLocal) out.push(group);
      group = [];
      allLocal = true;
    }
    if (e === undefined) break;
    group.push(e);
    if (!local.has(e.type)) allLocal = false;
  }
  return out;
}

/**
 * The ample-set candidates of `scenario`'s machine for `explore` (`ExploreOptions.ample`), or
 * undefined when the scenario has shared bootstrap rooms (no step is local then). A state's
 * candidates depend on its configuration alone (the events offered), so they are cached per
 * configuration, as `servingEvents` caches the offered events. `local` is for self-checks.
 */
export function servingAmple(
  scenario: Scenario,
  local: ReadonlySet<string> = servingLocalEvents,
): Ample | undefined {
  if (roomsCollide(scenario)) return undefined;
  const cache = new WeakMap<object, ExternalEvent[][]>();
  return (state, offered) => {
    const key: unknown = state.value;
    if (typeof key !== 'object' || key === null) return candidates(offered, local);
    let out = cache.get(key);
    if (out === undefined) {
      out = candidates(offered, local);
      cache.set(key, out);
    }
    return out;
  };
}

/** What every property, trigger and witness says of a state, as one string. */
function observed(s: ServingState): string {
  const parts: string[] = [];
  for (const p of Object.values(properties))
    parts.push(p(s) ? '1' : '0', p.trigger.fires(s) ? '1' : '0');
  for (const w of Object.values(witnesses)) parts.push(w(s) ? '1' : '0');
  return parts.join('');
}

/** What the self-check of the reduction found (`checkServingPor`). */
export interface PorCheck {
  /** One line per broken assumption, distinct, in the order found; empty when all hold. */
  readonly problems: readonly string[];
  /** Steps whose footprints were recorded, enabled or not. */
  readonly steps: number;
  /** False when `maxStates` stopped the visit: the lines cover only the states visited. */
  readonly complete: boolean;
}

/**
 * The self-check of the reduction on `scenario` × `variant` (`check --por-check`): visits
 * every step of the reachable space, enabled or not (`visitFootprints`, at most `maxStates`
 * states), and reports one line per broken assumption (`PorCheck.problems`):
 * - a step of a `local` type that reads or writes a word outside its request's private fields,
 *   or changes another request's regions;
 * - a step of any request that reads or writes another request's private fields, or changes
 *   its regions;
 * - an enabled `local` step after which some property, trigger or witness (terminal
 *   properties included, as state predicates) says otherwise than before.
 * Lines name the event type and the word or property. With shared rooms there is nothing to
 * check (`servingAmple` offers no reduction): no step is visited and no line reported.
 */
export function checkServingPor(
  scenario: Scenario,
  variant: Variant,
  local: ReadonlySet<string> = servingLocalEvents,
  maxStates = Number.POSITIVE_INFINITY,
): PorCheck {
  if (roomsCollide(scenario)) return { problems: [], steps: 0, complete: true };
  const L = layoutOf(scenario);
  const ownerOf = (w: number): number => {
    if (w >= L.requests.length * L.blockWords) return -1;
    const i = Math.floor(w / L.blockWords);
    return servingPrivateFields.includes(w - L.block(i)) ? i : -2;
  };
  const problems = new Set<string>();
  const machine = createServingMachine(scenario, variant);
  const events = servingEvents(L.requests);
  let steps = 0;
  const visit = (step: Footprint<ServingContext, ExternalEvent>) => {
    steps++;
    const { event } = step;
    const me = L.indexOf(event.rid);
    const isLocal = local.has(event.type);
    for (const [how, set] of [
      ['reads', step.words.reads],
      ['writes', step.words.writes],
    ] as const) {
      for (const w of set) {
        const owner = ownerOf(w);
        if (owner >= 0 && owner !== me) {
          problems.add(`${event.type} of another request ${how} ${field(L.wordName(w))}, private`);
        } else if (isLocal && owner !== me) {
          problems.add(`${event.type} (local) ${how} ${field(L.wordName(w))}, not private`);
        }
      }
    }
    for (const region of step.regions) {
      if (region !== event.rid) problems.add(`${event.type} changes another request's regions`);
    }
    if (!isLocal || step.next === null) return;
    const [before, after] = [observed(plainState(step.state)), observed(plainState(step.next))];
    if (before !== after)
      problems.add(`${event.type} (local) is visible: ${changed(before, after)}`);
  };
  const complete = visitFootprints(machine, { events, maxStates }, visit);
  return { problems: [...problems], steps, complete };
}

/** A variable's name without its request (`a1.pollPeak` → `pollPeak`), to merge lines. */
function field(name: string): string {
  const dot = name.indexOf('.');
  return dot < 0 || name.startsWith('prefill.') || name.startsWith('decode.')
    ? name
    : name.slice(dot + 1);
}

/** The names whose observation differs between two `observed` strings. */
function changed(before: string, after: string): string {
  const names = [
    ...Object.keys(properties).flatMap((n) => [n, `${n} (trigger)`]),
    ...Object.keys(witnesses),
  ];
  return names.filter((_, i) => before[i] !== after[i]).join(', ');
}
