/**
 * Transition selection (XState's `transitionNode` + `StateNode.next`) split in two: a plan per
 * (configuration, event type) that keeps only the active nodes with candidates for the type,
 * built once and cached on the configuration's view; and its evaluation per state, which calls
 * the guards. The plan has XState's shape: a node's own candidates are tried only when none of
 * its planned descendants selected a transition; the children of a parallel node are all tried,
 * in the order of the state value. A node without candidates of its own is transparent, so its
 * children's plans are inlined into its parent's. Plans are interned per machine: equal plans
 * (the same node, candidates and planned descendants) are one object, shared by every
 * configuration that has them, so that a view's plans cost a map entry each.
 *
 * A configuration of a parallel root put together from parts (`configView.ts`) has no plan of
 * its own: each part (a child's subtree) keeps its plans, and `selectByParts` runs them in
 * child order. A search meets hundreds of thousands of configurations made of a few hundred
 * parts; planning each configuration cost a plan build per event type and a map per view, and
 * on a breadth-first level, where consecutive states rarely share a configuration, a lookup in
 * a map the processor no longer held in its caches.
 */
import type { Moment } from './behaviour.ts';
import {
  COMPOUND,
  type CompiledMachine,
  type CompiledTransition,
  type EventTypeTable,
  PARALLEL,
} from './compiledMachine.ts';
import type { GuardArgs } from './machineSpec.ts';
import type { ReusedList } from './reusedList.ts';

/** Where a selection appends the transitions it selects: a `Transitions` list, or an array. */
export interface TransitionSink {
  push(t: CompiledTransition): void;
}

/** The transitions of a selection or a microstep, reused from one step to the next. */
export type Transitions = ReusedList<CompiledTransition>;

/** The selection work left for one configuration and event type. */
export interface Plan {
  /** Unique per interned plan of a machine. */
  readonly id: number;
  /** Planned descendants, all evaluated, in order. */
  readonly kids: readonly Plan[];
  /** This node's candidates, tried in order when no descendant selected anything. */
  readonly own: readonly CompiledTransition[] | null;
}

/** A machine's interned plans, by event type, node and the ids of the planned descendants. */
const interned = new WeakMap<CompiledMachine, Map<string, Plan>>();

function internPlan(
  m: CompiledMachine,
  type: string,
  n: number,
  kids: Plan[],
  own: readonly CompiledTransition[] | null,
): Plan {
  let plans = interned.get(m);
  if (plans === undefined) {
    plans = new Map();
    interned.set(m, plans);
  }
  const key = `${type}\u0000${n}:${kids.map((k) => k.id).join(',')}`;
  let plan = plans.get(key);
  if (plan === undefined) {
    plan = { id: plans.size, kids, own };
    plans.set(key, plan);
  }
  return plan;
}

function pushPlan(kids: Plan[], p: Plan | null): void {
  if (p === null) return;
  if (p.own === null) kids.push(...p.kids);
  else kids.push(p);
}

function planAt(
  m: CompiledMachine,
  type: string,
  n: number,
  table: EventTypeTable,
  flags: Uint8Array,
  done: boolean,
): Plan | null {
  if (table.handles[n] !== 1) return null;
  const kids: Plan[] = [];
  const kind = m.kind[n];
  if (kind === COMPOUND) {
    const c = m.activeChild(flags, n);
    if (c !== -1) pushPlan(kids, planAt(m, type, c, table, flags, done));
  } else if (kind === PARALLEL) {
    const cs = m.children[n] as readonly number[];
    for (let i = 0; i < cs.length; i++) {
      const c = cs[done ? cs.length - 1 - i : i] as number;
      pushPlan(kids, planAt(m, type, c, table, flags, done));
    }
  }
  return planned(m, type, n, kids, table.candidates[n] ?? null);
}

/** The plan of node `n` with the planned descendants `kids` and its own candidates `own`. */
function planned(
  m: CompiledMachine,
  type: string,
  n: number,
  kids: Plan[],
  own: readonly CompiledTransition[] | null,
): Plan | null {
  if (own === null && kids.length === 0) return null;
  if (own === null && kids.length === 1) return kids[0] as Plan;
  return internPlan(m, type, n, kids, own);
}

/**
 * The plans of one child subtree of a parallel root, per event type, shared by every
 * configuration in which that subtree is active the same way (a part of a `ConfigView`).
 */
export interface SubtreePlans {
  /** By event type table (`EventTypeTable.index`); undefined until built. */
  readonly plans: (Plan | null | undefined)[];
}

/**
 * The plan for `eventType` in the configuration `flags` (null: nothing can be selected). With
 * `parts` (a parallel root, not done: `parts[i]` is the subtree of the root's child `i`), each
 * child's plan is taken from, or cached in, its part: a child's plan depends on its subtree
 * alone, so configurations that differ elsewhere share it.
 */
export function buildPlan(
  m: CompiledMachine,
  eventType: string,
  flags: Uint8Array,
  done: boolean,
  parts: readonly SubtreePlans[] | null = null,
): Plan | null {
  const table = m.table(eventType);
  if (parts === null) return planAt(m, eventType, 0, table, flags, done);
  if (table.handles[0] !== 1) return null;
  const cs = m.children[0] as readonly number[];
  const kids: Plan[] = [];
  for (let i = 0; i < cs.length; i++) {
    pushPlan(kids, partPlan(m, eventType, table, flags, parts[i] as SubtreePlans, cs[i] as number));
  }
  return planned(m, eventType, 0, kids, table.candidates[0] ?? null);
}

/** The plan of `part`, the subtree of the root's child `child` in `flags`, built on first use. */
function partPlan(
  m: CompiledMachine,
  eventType: string,
  table: EventTypeTable,
  flags: Uint8Array,
  part: SubtreePlans,
  child: number,
): Plan | null {
  const plans = part.plans;
  let p = plans[table.index];
  if (p === undefined) {
    p = planAt(m, eventType, child, table, flags, false);
    // Grown by pushes, without holes: an array with holes is slower to read.
    while (plans.length <= table.index) plans.push(undefined);
    plans[table.index] = p;
  }
  return p;
}

/**
 * Selection for `event` in a configuration `at.flags` of a parallel root that is not done, put
 * together from `parts` (as `buildPlan` takes them): each child's plan is its part's, run in
 * child order, then the root's own candidates if no child selected anything. That is what
 * `runPlan` does with the plan `buildPlan` makes from the same parts, without a plan of the
 * whole configuration: configurations are many, and their parts few and shared, so the parts'
 * plans are at hand where a configuration's would have to be built and looked up. Appends the
 * selected transitions to `out` and returns whether there are any.
 */
export function selectByParts(
  m: CompiledMachine,
  parts: readonly SubtreePlans[],
  args: GuardArgs,
  at: Moment,
  out: TransitionSink,
): boolean {
  const type = args.event.type;
  const table = m.table(type);
  if (table.handles[0] !== 1) return false;
  const cs = m.children[0] as readonly number[];
  let any = false;
  for (let i = 0; i < cs.length; i++) {
    const part = parts[i] as SubtreePlans;
    const p = partPlan(m, type, table, at.flags, part, cs[i] as number);
    if (p !== null && runPlan(p, args, at, out)) any = true;
  }
  if (any) return true;
  return tryOwn(table.candidates[0], args, at, out);
}

/** Evaluates `plan` against `args` (context and event), appending selected transitions to `out`. */
export function runPlan(plan: Plan, args: GuardArgs, at: Moment, out: TransitionSink): boolean {
  let any = false;
  const kids = plan.kids;
  for (let i = 0; i < kids.length; i++) {
    if (runPlan(kids[i] as Plan, args, at, out)) any = true;
  }
  if (any) return true;
  return tryOwn(plan.own, args, at, out);
}

function tryOwn(
  own: readonly CompiledTransition[] | null | undefined,
  args: GuardArgs,
  at: Moment,
  out: TransitionSink,
): boolean {
  if (!own) return false;
  for (let i = 0; i < own.length; i++) {
    const t = own[i] as CompiledTransition;
    if (t.guard === null || t.guard(args, at)) {
      out.push(t);
      return true;
    }
  }
  return false;
}

/**
 * Selection without a plan, for configurations seen once (between the microsteps of a
 * macrostep): the same walk as `buildPlan` followed by `runPlan`, without allocating.
 */
export function selectDirect(
  m: CompiledMachine,
  n: number,
  table: EventTypeTable,
  args: GuardArgs,
  at: Moment,
  out: TransitionSink,
): boolean {
  if (table.handles[n] !== 1) return false;
  const kind = m.kind[n];
  if (kind === COMPOUND) {
    const c = m.activeChild(at.flags, n);
    if (c !== -1 && selectDirect(m, c, table, args, at, out)) return true;
  } else if (kind === PARALLEL) {
    const cs = m.children[n] as readonly number[];
    let any = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[at.done ? cs.length - 1 - i : i] as number;
      if (selectDirect(m, c, table, args, at, out)) any = true;
    }
    if (any) return true;
  }
  return tryOwn(table.candidates[n], args, at, out);
}
