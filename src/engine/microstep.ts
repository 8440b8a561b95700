/**
 * XState 5.33.3's `microstep` on a mutable work area (the configuration being built, the
 * context, the done flag, the internal queue):
 * - `removeConflictingTransitions`: in selection order, a transition whose exit set meets an
 *   earlier one's replaces it if its source is a descendant of the earlier source, else drops;
 * - exit set = active strict descendants of the domain (every active node for XState's
 *   undefined domain), exited in reverse document order with their exit actions; then the
 *   transition actions in order; then the entry set in document order with entry actions;
 * - each entered final state queues its parent's done event (compound parent) and every newly
 *   completed parallel ancestor's; a completed root makes the snapshot done, and a done
 *   snapshot runs every active node's exit actions (reverse document order) after the entries.
 * It also records whether XState would return a new snapshot object (`changed`).
 */
import type { EventObject } from 'xstate';
import type { ActionFn, RaiseQueue, StepScratch } from './behaviour.ts';
import {
  ATOMIC,
  COMPOUND,
  type CompiledMachine,
  type CompiledTransition,
  FINAL,
  PARALLEL,
} from './compiledMachine.ts';
import { NodeList, ReusedList } from './reusedList.ts';
import type { Transitions } from './selection.ts';

/** `Work.only` once a macrostep has taken more than one transition. */
export const several: unique symbol = Symbol('several transitions');

/** The state a macrostep is building, plus its Zobrist hash (see `configView.ts`). */
export class Work {
  flags: Uint8Array;
  private readonly before: Uint8Array;
  context: unknown = undefined;
  done = false;
  zobrist = 0;
  /** Whether XState would return a new snapshot: an assign ran, the configuration changed in
   * some microstep, or the root completed. */
  changed = false;
  /** The internal queue (raised and done events); `ReusedList` is a `RaiseQueue`. */
  readonly queue: ReusedList<EventObject> & RaiseQueue = new ReusedList<EventObject>();
  /** The exit set (`exitSet`) of the microstep's transitions together. */
  readonly exits = new NodeList();
  /** The exit set of the transition `removeConflicts` considers. */
  readonly exitsA = new NodeList();
  /** The exit set of a kept transition `removeConflicts` compares it with. */
  readonly exitsB = new NodeList();
  /** The entry sets of a microstep's transitions, when it takes more than one. */
  private readonly entries = new NodeList();
  /** The transitions `removeConflicts` keeps of several. */
  readonly kept: Transitions = new ReusedList();
  /**
   * The one transition the macrostep has taken, while it has taken exactly one in one
   * microstep; null before any, and `several` after more.
   */
  only: CompiledTransition | typeof several | null = null;
  /** What the actions of the macrostep share (its own context copy); reset per macrostep. */
  readonly scratch: StepScratch = {
    owned: null,
    buffer: null,
    shell: null,
    statics: [],
    args: { event: { type: '' } },
    log: null,
  };

  constructor(
    readonly m: CompiledMachine,
    private readonly words: Int32Array,
    private readonly doneWord: number,
  ) {
    this.flags = new Uint8Array(m.size);
    this.before = new Uint8Array(m.size);
  }

  private clear(s: number): void {
    if (this.flags[s] !== 1) return;
    this.flags[s] = 0;
    this.zobrist ^= this.words[s] as number;
  }

  private set(s: number): void {
    if (this.flags[s] === 1) return;
    this.flags[s] = 1;
    this.zobrist ^= this.words[s] as number;
  }

  private run(actions: readonly ActionFn[] | undefined, e: EventObject): void {
    if (actions === undefined) return;
    for (let i = 0; i < actions.length; i++) {
      const next = (actions[i] as ActionFn)(this.context, e, this.queue, this.scratch);
      if (next !== this.context) this.changed = true;
      this.context = next;
    }
  }

  /** One microstep taking the `selected` transitions on `event`. */
  microstep(selected: Transitions, event: EventObject): void {
    const watch = !this.changed;
    if (watch) this.before.set(this.flags);
    const zobrist = this.zobrist;
    const kept = removeConflicts(this, selected);
    this.only = this.only === null && kept.length === 1 ? kept.at(0) : several;
    this.exitAndEnter(kept, event);
    if (!watch || this.changed) return;
    if (this.zobrist !== zobrist) this.changed = true;
    else
      for (let n = 0; n < this.flags.length && !this.changed; n++) {
        if (this.before[n] !== this.flags[n]) this.changed = true;
      }
  }

  private exitAndEnter(ts: Transitions, event: EventObject): void {
    if (ts.length === 0) return;
    const exits = this.exits;
    exits.length = 0;
    for (let i = 0; i < ts.length; i++) exitSet(this, ts.at(i), exits);
    // One transition's exit set is in document order already (`exitSet`); exited in reverse.
    if (ts.length > 1) exits.sortUnique();
    for (let i = exits.length - 1; i >= 0; i--) {
      const s = exits.at[i] as number;
      this.run(this.m.exitActions[s], event);
      this.clear(s);
    }
    for (let i = 0; i < ts.length; i++) this.run(ts.at(i).actions, event);
    let completed: number[] | null = null;
    if (ts.length === 1) {
      const entry = ts.at(0).entry;
      for (let i = 0; i < entry.length; i++) {
        completed = this.enter(entry[i] as number, event, completed);
      }
    } else {
      const entries = this.entries;
      entries.length = 0;
      for (let i = 0; i < ts.length; i++) for (const s of ts.at(i).entry) entries.push(s);
      entries.sortUnique();
      for (let i = 0; i < entries.length; i++) {
        completed = this.enter(entries.at[i] as number, event, completed);
      }
    }
    if (this.done) {
      for (let n = this.m.size - 1; n >= 0; n--) {
        if (this.flags[n] === 1) this.run(this.m.exitActions[n], event);
      }
    }
  }

  /** Enters `s` with its entry actions; `completed` as `enteredFinal` takes and returns it. */
  private enter(s: number, event: EventObject, completed: number[] | null): number[] | null {
    this.set(s);
    this.run(this.m.entryActions[s], event);
    return this.m.kind[s] === FINAL ? this.enteredFinal(s, completed) : completed;
  }

  /** `enterStates`' bookkeeping for an entered final state. */
  private enteredFinal(s: number, completedIn: number[] | null): number[] | null {
    const m = this.m;
    let completed = completedIn;
    const parent = m.parent[s] as number;
    const parentKind = parent === -1 ? -1 : m.kind[parent];
    let marker =
      parentKind === PARALLEL ? parent : parent === -1 ? -1 : (m.parent[parent] as number);
    if (parentKind === COMPOUND) this.queue.push(m.doneEvents[parent] as EventObject);
    while (
      marker !== -1 &&
      m.kind[marker] === PARALLEL &&
      !completed?.includes(marker) &&
      m.isInFinalState(this.flags, marker)
    ) {
      completed = completed ?? [];
      completed.push(marker);
      this.queue.push(m.doneEvents[marker] as EventObject);
      marker = m.parent[marker] as number;
    }
    if (marker === -1) {
      if (!this.done) this.zobrist ^= this.doneWord;
      this.done = true;
      this.changed = true;
    }
    return completed;
  }
}

function activeBelow(w: Work, n: number, into: NodeList): void {
  for (const c of w.m.children[n] as readonly number[]) {
    if (w.flags[c] !== 1) continue;
    into.push(c);
    if (w.m.kind[c] !== ATOMIC && w.m.kind[c] !== FINAL) activeBelow(w, c, into);
  }
}

/**
 * XState's `computeExitSet` for one transition, unsorted, appended to `into`: the domain (when
 * exited) then its active descendants in document order, so one transition's set is ascending.
 */
function exitSet(w: Work, t: CompiledTransition, into: NodeList): void {
  if (!t.hasTargets) return;
  if (t.exitsDomain) into.push(t.domain);
  if (t.domain === -1) into.push(0);
  activeBelow(w, t.domain === -1 ? 0 : t.domain, into);
}

/** XState's `removeConflictingTransitions`. */
function removeConflicts(w: Work, ts: Transitions): Transitions {
  if (ts.length < 2) return ts;
  const kept = w.kept;
  kept.clear();
  const e1 = w.exitsA;
  const e2 = w.exitsB;
  for (let i = 0; i < ts.length; i++) {
    const t1 = ts.at(i);
    e1.length = 0;
    exitSet(w, t1, e1);
    let preempted = false;
    let drop: Set<CompiledTransition> | null = null;
    for (let j = 0; j < kept.length; j++) {
      const t2 = kept.at(j);
      e2.length = 0;
      exitSet(w, t2, e2);
      if (!e1.meets(e2)) continue;
      if (!w.m.structure.isDescendant(t1.source, t2.source)) {
        preempted = true;
        break;
      }
      drop ??= new Set();
      drop.add(t2);
    }
    if (preempted) continue;
    if (drop !== null) {
      const dropped = drop;
      kept.retain((t) => !dropped.has(t));
    }
    kept.push(t1);
  }
  return kept;
}
