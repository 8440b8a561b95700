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
import type { ActionFn, StepScratch } from './behaviour.ts';
import {
  ATOMIC,
  COMPOUND,
  type CompiledMachine,
  type CompiledTransition,
  FINAL,
  PARALLEL,
} from './compiledMachine.ts';

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
  readonly queue: EventObject[] = [];
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
  microstep(selected: CompiledTransition[], event: EventObject): void {
    const watch = !this.changed;
    if (watch) this.before.set(this.flags);
    const zobrist = this.zobrist;
    const kept = removeConflicts(this, selected);
    this.only = this.only === null && kept.length === 1 ? (kept[0] as CompiledTransition) : several;
    this.exitAndEnter(kept, event);
    if (!watch || this.changed) return;
    if (this.zobrist !== zobrist) this.changed = true;
    else
      for (let n = 0; n < this.flags.length && !this.changed; n++) {
        if (this.before[n] !== this.flags[n]) this.changed = true;
      }
  }

  private exitAndEnter(ts: CompiledTransition[], event: EventObject): void {
    const exits: number[] = [];
    for (const t of ts) exitSet(this, t, exits);
    if (exits.length > 0) {
      const order = ts.length > 1 ? sortedUnique(exits, descending) : exits.reverse();
      for (const s of order) {
        this.run(this.m.exitActions[s], event);
        this.clear(s);
      }
    }
    for (const t of ts) this.run(t.actions, event);
    const first = ts[0];
    if (first === undefined) return;
    const entry = ts.length === 1 ? first.entry : sortedUnique(entriesOf(ts), ascending);
    let completed: number[] | null = null;
    for (const s of entry) {
      this.set(s);
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

const ascending = (a: number, b: number) => a - b;
const descending = (a: number, b: number) => b - a;

/** `xs` sorted by `order`, each value once, in place (what a `Set` then a sort would give). */
function sortedUnique(xs: number[], order: (a: number, b: number) => number): number[] {
  xs.sort(order);
  let k = 0;
  for (let i = 0; i < xs.length; i++) {
    if (k === 0 || xs[i] !== xs[k - 1]) xs[k++] = xs[i] as number;
  }
  // A set length is a runtime call: only when there was a repeat.
  if (k < xs.length) xs.length = k;
  return xs;
}

/** The entry sets of `ts`, one after the other. */
function entriesOf(ts: readonly CompiledTransition[]): number[] {
  const out: number[] = [];
  for (const t of ts) for (const s of t.entry) out.push(s);
  return out;
}

function activeBelow(w: Work, n: number, into: number[]): void {
  for (const c of w.m.children[n] as readonly number[]) {
    if (w.flags[c] !== 1) continue;
    into.push(c);
    if (w.m.kind[c] !== ATOMIC && w.m.kind[c] !== FINAL) activeBelow(w, c, into);
  }
}

/** XState's `computeExitSet` for one transition, unsorted. */
function exitSet(w: Work, t: CompiledTransition, into: number[]): void {
  if (!t.hasTargets) return;
  if (t.exitsDomain) into.push(t.domain);
  if (t.domain === -1) into.push(0);
  activeBelow(w, t.domain === -1 ? 0 : t.domain, into);
}

/** XState's `removeConflictingTransitions`. */
function removeConflicts(w: Work, ts: CompiledTransition[]): CompiledTransition[] {
  if (ts.length < 2) return ts;
  let kept: CompiledTransition[] = [];
  for (const t1 of ts) {
    const e1: number[] = [];
    exitSet(w, t1, e1);
    let preempted = false;
    let drop: Set<CompiledTransition> | null = null;
    for (const t2 of kept) {
      const e2: number[] = [];
      exitSet(w, t2, e2);
      if (!e1.some((s) => e2.includes(s))) continue;
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
      kept = kept.filter((t) => !dropped.has(t));
    }
    kept.push(t1);
  }
  return kept;
}
