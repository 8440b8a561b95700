/**
 * XState 5.33.3's `macrostep`/`microstep` over the engine's plain state: a configuration as a
 * byte per state node (1 = active), the context, and the done flag. Semantics kept exactly:
 * - selection (`transitionNode` + `StateNode.next`): depth first over the active tree; a
 *   compound node's own transitions are tried only if its active child selected none; a
 *   parallel node's children are all tried in value order, its own transitions only if none of
 *   them selected any; per node the first candidate whose guard holds wins; guards see the
 *   context before the microstep;
 * - `removeConflictingTransitions`: in selection order, a transition whose exit set meets an
 *   earlier one's replaces it if its source is a descendant of the earlier source, else drops;
 * - exit set = active strict descendants of the domain, exited in reverse document order with
 *   their exit actions; then transition actions in order; then the entry set in document order
 *   with entry actions, each entered final state queueing its parent's done event and every
 *   completed parallel ancestor's; a completed root makes the snapshot done, which runs every
 *   active node's exit actions (reverse document order) after each later microstep too;
 * - raised and done events are processed in order as further microsteps of the same
 *   macrostep, while the snapshot is active; a done snapshot still takes its first microstep.
 */
import type { EventObject } from 'xstate';
import type { ActionFn } from './behaviour.ts';
import {
  ATOMIC,
  COMPOUND,
  type CompiledMachine,
  type CompiledTransition,
  FINAL,
  PARALLEL,
} from './compiledMachine.ts';
import { buildPlan, type Plan, runPlan, selectDirect } from './selection.ts';

/** One state of the machine as the engine stores it. */
export interface EngineState {
  readonly flags: Uint8Array;
  readonly context: unknown;
  readonly done: boolean;
}

/** More microsteps than this in one macrostep is taken as an endless raise loop. */
const maxMicrosteps = 100_000;

/** A reusable interpreter for one compiled machine. */
export class Interpreter {
  private flags = new Uint8Array(0);
  private context: unknown = undefined;
  private done = false;
  /** Whether XState would return a new snapshot object: an assign ran, the configuration
   * changed in some microstep, or the root completed. */
  private changed = false;
  private readonly queue: EventObject[] = [];
  private readonly selected: CompiledTransition[] = [];
  private readonly moment: { flags: Uint8Array; done: boolean } = {
    flags: this.flags,
    done: false,
  };

  constructor(readonly m: CompiledMachine) {}

  /**
   * The state after `event`, or null when `event` is not enabled: no transition is selected, or
   * the macrostep leaves XState's snapshot object as it was (no `assign` ran, no microstep
   * changed the configuration, the root did not complete), which is exactly when
   * `transition(machine, snapshot, event)[0] === snapshot`. `plans` caches selection plans for
   * `state`'s configuration (see `selection.ts`).
   */
  step(
    state: EngineState,
    event: EventObject,
    plans?: Map<string, Plan | null>,
  ): EngineState | null {
    let plan: Plan | null | undefined = plans?.get(event.type);
    if (plan === undefined) {
      plan = buildPlan(this.m, event.type, state.flags, state.done);
      plans?.set(event.type, plan);
    }
    if (plan === null) return null;
    const selected = this.selected;
    selected.length = 0;
    this.moment.flags = state.flags;
    this.moment.done = state.done;
    if (!runPlan(plan, state.context, event, this.moment, selected)) return null;
    this.flags = state.flags.slice();
    this.context = state.context;
    this.done = state.done;
    this.changed = false;
    this.queue.length = 0;
    this.microstep(selected, event);
    let head = 0;
    for (let i = 0; !this.done && head < this.queue.length; i++) {
      if (i > maxMicrosteps) throw new Error('Infinite loop detected: endless raised events');
      const next = this.queue[head++] as EventObject;
      const ts: CompiledTransition[] = [];
      this.moment.flags = this.flags;
      this.moment.done = false;
      const table = this.m.table(next.type);
      if (selectDirect(this.m, 0, table, this.context, next, this.moment, ts)) {
        this.microstep(ts, next);
      }
    }
    this.queue.length = 0;
    if (!this.changed) return null;
    return { flags: this.flags, context: this.context, done: this.done };
  }

  private exitSet(t: CompiledTransition, into: number[]): void {
    if (!t.hasTargets) return;
    if (t.exitsDomain) into.push(t.domain);
    if (t.domain === -1) {
      into.push(0);
      this.activeBelow(0, into);
    } else {
      this.activeBelow(t.domain, into);
    }
  }

  private activeBelow(n: number, into: number[]): void {
    for (const c of this.m.children[n] as readonly number[]) {
      if (this.flags[c] !== 1) continue;
      into.push(c);
      if (this.m.kind[c] !== ATOMIC && this.m.kind[c] !== FINAL) this.activeBelow(c, into);
    }
  }

  private removeConflicts(ts: CompiledTransition[]): CompiledTransition[] {
    if (ts.length < 2) return ts;
    let kept: CompiledTransition[] = [];
    for (const t1 of ts) {
      const e1: number[] = [];
      this.exitSet(t1, e1);
      let preempted = false;
      const drop = new Set<CompiledTransition>();
      for (const t2 of kept) {
        const e2: number[] = [];
        this.exitSet(t2, e2);
        if (!e1.some((s) => e2.includes(s))) continue;
        if (this.m.structure.isDescendant(t1.source, t2.source)) drop.add(t2);
        else {
          preempted = true;
          break;
        }
      }
      if (preempted) continue;
      if (drop.size > 0) kept = kept.filter((t) => !drop.has(t));
      kept.push(t1);
    }
    return kept;
  }

  private run(actions: readonly ActionFn[] | undefined, e: EventObject): void {
    if (actions === undefined) return;
    for (const a of actions) {
      const next = a(this.context, e, this.queue);
      if (next !== this.context) this.changed = true;
      this.context = next;
    }
  }

  private microstep(selected: CompiledTransition[], event: EventObject): void {
    const before = this.changed ? null : this.flags.slice();
    this.enterAndExit(selected, event);
    if (before !== null && !this.changed) {
      for (let n = 0; n < before.length; n++) {
        if (before[n] !== this.flags[n]) {
          this.changed = true;
          break;
        }
      }
    }
  }

  private enterAndExit(selected: CompiledTransition[], event: EventObject): void {
    const ts = this.removeConflicts(selected);
    const exits: number[] = [];
    for (const t of ts) this.exitSet(t, exits);
    if (exits.length > 0) {
      const order = ts.length > 1 ? [...new Set(exits)].sort((a, b) => b - a) : exits.reverse();
      for (const s of order) {
        this.run(this.m.exitActions[s], event);
        this.flags[s] = 0;
      }
    }
    for (const t of ts) this.run(t.actions, event);
    const first = ts[0];
    if (first === undefined) return;
    const entry =
      ts.length === 1
        ? first.entry
        : [...new Set(ts.flatMap((t) => t.entry))].sort((a, b) => a - b);
    let completed: number[] | null = null;
    for (const s of entry) {
      this.flags[s] = 1;
      this.run(this.m.entryActions[s], event);
      if (this.m.kind[s] === FINAL) completed = this.enteredFinal(s, completed);
    }
    if (this.done) {
      for (let n = this.m.size - 1; n >= 0; n--) {
        if (this.flags[n] === 1) this.run(this.m.exitActions[n], event);
      }
    }
  }

  /** `enterStates`' bookkeeping for an entered final state. */
  private enteredFinal(s: number, completedIn: number[] | null): number[] | null {
    let completed = completedIn;
    const parent = this.m.parent[s] as number;
    const parentKind = parent === -1 ? -1 : this.m.kind[parent];
    let marker = parentKind === PARALLEL ? parent : parent === -1 ? -1 : this.m.parent[parent];
    if (parentKind === COMPOUND) this.queue.push(this.m.doneEvents[parent] as EventObject);
    while (
      marker !== undefined &&
      marker !== -1 &&
      this.m.kind[marker] === PARALLEL &&
      !completed?.includes(marker) &&
      this.m.isInFinalState(this.flags, marker)
    ) {
      completed = completed ?? [];
      completed.push(marker);
      this.queue.push(this.m.doneEvents[marker] as EventObject);
      marker = this.m.parent[marker] as number;
    }
    if (marker === undefined || marker === -1) {
      this.done = true;
      this.changed = true;
    }
    return completed;
  }
}
