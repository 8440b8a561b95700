/**
 * Shrinking a failing walk to a minimal trace: fewest steps, then fewest requests involved.
 *
 * A candidate is a list of events. It is replayed from the initial state; an event that is not
 * enabled where it comes is skipped. For a state property the replay stops at the first state
 * that violates it; for a terminal property, the replay continues after the candidate's events
 * with the first enabled offered event at each step until no event is enabled (within the depth
 * bound), and that last state must violate it. The events applied are the candidate's trace.
 *
 * 1. Fewest requests first: the whole walk restricted to the events of one request, then of two
 *    requests (each subset in order of first appearance), is replayed; the first subset that
 *    still violates the property is kept. If none does, requests are dropped one at a time,
 *    each drop kept if the property is still violated somewhere in the walk.
 * 2. Then, from the walk's own trace and from the trace step 1 kept, separately and until
 *    neither improves it: drop every event of one request; drop a run of consecutive steps,
 *    halving the run length from half the trace down to one step (delta debugging's complement
 *    pass). Here a candidate is kept only if its trace is shorter, or as long with fewer
 *    requests. The better of the two results is returned.
 *
 * The result is 1-minimal: removing any single step or any single request's events from it no
 * longer gives a shorter violating trace. Walks are shrunk on their events rather than on the
 * random choices that drew them, so a shrunk trace does not depend on how enabled events were
 * numbered during the walk.
 */
import type { Property } from '../../invariants/property.ts';
import type { ExternalEvent } from '../../machines/events.ts';
import { type ServingStepper, type SimState, servingStateOf } from './stepper.ts';

/** A replayed trace: the events applied and the states they led to, ending in a violation. */
export interface Replay {
  readonly events: readonly ExternalEvent[];
  readonly states: readonly SimState[];
}

/** Distinct requests named by `events`. */
export function requestsOf(events: readonly ExternalEvent[]): number {
  return new Set(events.map((e) => e.rid)).size;
}

/**
 * Replays `events` from the initial state, skipping those not enabled, and returns the trace up
 * to the state that violates `property` (see the module comment), or null if none does. A
 * terminal property's replay is completed with first-enabled events, up to `depth` steps.
 */
export function replay(
  stepper: ServingStepper,
  property: Property,
  events: readonly ExternalEvent[],
  depth = Number.POSITIVE_INFINITY,
): Replay | null {
  const applied: ExternalEvent[] = [];
  const states: SimState[] = [];
  let state = stepper.initial;
  const violatedAt = (s: SimState) => !property(servingStateOf(s));
  if (property.kind === 'state' && violatedAt(state)) return { events: applied, states };
  const apply = (event: ExternalEvent): boolean => {
    const next = stepper.step(state, event);
    if (next === null) return false;
    state = next;
    applied.push(event);
    states.push(state);
    return true;
  };
  for (const event of events) {
    if (apply(event) && property.kind === 'state' && violatedAt(state)) {
      return { events: applied, states };
    }
  }
  if (property.kind === 'state') return null;
  while (applied.length < depth) {
    const moved = stepper.offered(state).some(apply);
    if (!moved) return violatedAt(state) ? { events: applied, states } : null;
  }
  return null;
}

/** Whether trace `a` is better than `b`: fewer steps, or as many with fewer requests. */
export function better(a: Replay, b: Replay): boolean {
  if (a.events.length !== b.events.length) return a.events.length < b.events.length;
  return requestsOf(a.events) < requestsOf(b.events);
}

/** The shrunk trace and how much work shrinking took. */
export interface Shrunk {
  readonly trace: Replay;
  /** Candidates replayed. */
  readonly replays: number;
}

function subsets<T>(items: readonly T[], size: 1 | 2): T[][] {
  if (size === 1) return items.map((i) => [i]);
  return items.flatMap((a, i) => items.slice(i + 1).map((b) => [a, b]));
}

/**
 * Shrinks `walk`, which must violate `property` in a replay, to a 1-minimal trace (see the
 * module comment); `depth` bounds the completion of a terminal property's replays. Throws if
 * `walk` does not violate it.
 */
export function shrink(
  stepper: ServingStepper,
  property: Property,
  walk: readonly ExternalEvent[],
  depth = Number.POSITIVE_INFINITY,
): Shrunk {
  let replays = 0;
  const run = (candidate: readonly ExternalEvent[]) => {
    replays++;
    return replay(stepper, property, candidate, depth);
  };
  const first = run(walk);
  if (first === null) throw new Error('shrink: the walk does not violate the property on replay');
  let best: Replay = first;
  // 1. Fewest requests, over the whole walk.
  const rids = [...new Set(walk.map((e) => e.rid))];
  let kept: readonly ExternalEvent[] = walk;
  let narrowed = false;
  for (const size of [1, 2] as const) {
    for (const subset of subsets(rids, size)) {
      if (narrowed || subset.length >= rids.length) continue;
      const candidate = walk.filter((e) => subset.includes(e.rid));
      const r = run(candidate);
      if (r !== null) {
        best = r;
        kept = candidate;
        narrowed = true;
      }
    }
  }
  if (!narrowed) {
    for (const rid of rids) {
      const candidate = kept.filter((e) => e.rid !== rid);
      const r = run(candidate);
      if (r !== null) {
        best = r;
        kept = candidate;
      }
    }
  }
  // 2. Fewest steps, then fewest requests, over the trace: from the walk's own trace and from
  // the one with fewer requests, keeping the better result.
  const minimise = (from: Replay): Replay => {
    let current = from;
    const attempt = (candidate: readonly ExternalEvent[]): boolean => {
      const r = run(candidate);
      if (r === null || !better(r, current)) return false;
      current = r;
      return true;
    };
    for (let improved = true; improved; ) {
      improved = false;
      for (const rid of new Set(current.events.map((e) => e.rid))) {
        if (attempt(current.events.filter((e) => e.rid !== rid))) improved = true;
      }
      for (let size = Math.max(1, Math.floor(current.events.length / 2)); size >= 1; ) {
        let removed = false;
        for (let start = 0; start < current.events.length; start += size) {
          const events: readonly ExternalEvent[] = current.events;
          if (attempt([...events.slice(0, start), ...events.slice(start + size)])) {
            removed = true;
            improved = true;
            start -= size;
          }
        }
        if (!removed) size = size === 1 ? 0 : Math.max(1, Math.floor(size / 2));
      }
    }
    return current;
  };
  const fromWalk = minimise(first);
  const fromFewer = best === first ? fromWalk : minimise(best);
  best = better(fromFewer, fromWalk) ? fromFewer : fromWalk;
  return { trace: best, replays };
}
