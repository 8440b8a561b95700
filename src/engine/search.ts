/**
 * The breadth-first search behind `explore`: level arrays as the queue (no `shift`), a
 * visited-state store with parent and event per state, invariants checked on each new state in
 * discovery order (so the first violation of each is at minimal depth), terminal invariants
 * where no offered event is enabled, and the bounds.
 */
import type { EventObject } from 'xstate';
import type { CompiledMachine } from './compiledMachine.ts';
import { type ConfigView, EngineSnapshot, ViewCache } from './configView.ts';
import { EventTable, offeredEvents } from './events.ts';
import type { HashNode } from './fingerprint.ts';
import { type EngineState, Interpreter } from './interpreter.ts';
import { ExactStore, FingerprintStore, type StateStore } from './stateStore.ts';
import type { ExploreBound, ExploreOptions, Invariant, SnapshotLike } from './types.ts';

/** A discovered state waiting to be expanded. */
export interface Item {
  readonly state: EngineState;
  readonly view: ConfigView;
  readonly index: number;
  /** Hash tree of the context (fingerprint mode), the hint for its successors. */
  readonly tree: HashNode | null;
}

interface Check<C> {
  readonly name: string;
  readonly holds: Invariant<C>;
  at: number;
}

function checks<C>(spec: Readonly<Record<string, Invariant<C>>> | undefined): Check<C>[] {
  return Object.entries(spec ?? {}).map(([name, holds]) => ({ name, holds, at: -1 }));
}

/** One run of the search; `run()` fills the public fields. */
export class Search<C, E extends EventObject> {
  readonly interp: Interpreter;
  readonly views: ViewCache;
  readonly store: StateStore;
  readonly events = new EventTable();
  readonly invariants: Check<C>[];
  readonly terminal: Check<C>[];
  transitions = 0;
  /** The deepest level holding a stored state. */
  maxDepth = 0;
  private depth = 0;
  bound: ExploreBound | undefined;
  private stopped = false;
  private expanded = 0;
  private readonly started = performance.now();
  private lastProgress = this.started;
  private pending = 0;

  constructor(
    readonly m: CompiledMachine,
    readonly options: ExploreOptions<C, E>,
  ) {
    this.interp = new Interpreter(m);
    this.views = new ViewCache(m);
    this.store = options.exact ? new ExactStore() : new FingerprintStore();
    this.invariants = checks(options.invariants);
    this.terminal = checks(options.terminalInvariants);
  }

  /** The snapshot-like view of an engine state. */
  snapshot(state: EngineState, view: ConfigView = this.views.of(state)): SnapshotLike<C> {
    return new EngineSnapshot<C>(view, state.context as C);
  }

  /** `state` mapped to its representative by `options.symmetry` (or itself) and its view. */
  canonical(state: EngineState, view: ConfigView): Item {
    const sym = this.options.symmetry;
    if (!sym) return { state, view, index: -1, tree: null };
    const snap = this.snapshot(state, view);
    const rep = sym(snap);
    if (rep === snap || (rep.value === snap.value && rep.context === snap.context)) {
      return { state, view, index: -1, tree: null };
    }
    const flags = rep.value === snap.value ? state.flags : this.m.flagsFromValue(rep.value);
    const next: EngineState = { flags, context: rep.context, done: state.done };
    return { state: next, view: this.views.of(next), index: -1, tree: null };
  }

  /** Runs the search from `initial`. */
  run(initial: EngineState): void {
    const start = this.canonical(initial, this.views.of(initial));
    this.store.add(start.view, start.state.context, -1, null);
    const root: Item = {
      state: start.state,
      view: start.view,
      index: 0,
      tree: this.store.lastTree,
    };
    this.discovered(root, 0);
    let level: (Item | undefined)[] = [root];
    while (level.length > 0 && !this.stopped) {
      const next: Item[] = [];
      this.pending = level.length;
      for (let i = 0; i < level.length && !this.stopped; i++) {
        const item = level[i] as Item;
        level[i] = undefined;
        this.pending--;
        this.expand(item, next);
        this.tick(next.length);
      }
      this.depth++;
      level = next;
    }
  }

  private expand(item: Item, next: Item[]): void {
    const snap = this.snapshot(item.state, item.view);
    const offered = offeredEvents(this.options.events, item.view, snap);
    let enabled = 0;
    for (const event of offered) {
      const succ = this.interp.step(item.state, event, item.view.plans);
      if (succ === null) continue;
      enabled++;
      this.transitions++;
      let state = succ;
      let view = this.views.of(succ);
      if (this.options.symmetry) ({ state, view } = this.canonical(succ, view));
      if (this.bounded(view, state.context)) return;
      const added = this.store.add(view, state.context, item.index, item.tree);
      this.options.onTransition?.(item.index, event as E, added >= 0 ? added : -1 - added);
      if (added < 0) continue;
      this.store.setEvent(added, this.events.intern(event));
      const found: Item = { state, view, index: added, tree: this.store.lastTree };
      next.push(found);
      this.discovered(found, this.depth + 1);
      if (this.stopped) return;
    }
    if (enabled === 0 && this.terminal.length > 0) this.checkAll(this.terminal, item);
  }

  private bounded(view: ConfigView, context: unknown): boolean {
    const max = this.options.maxStates ?? Number.POSITIVE_INFINITY;
    if (this.store.size < max || this.store.find(view, context) !== -1) return false;
    this.bound = { reason: 'maxStates', limit: max };
    this.stopped = true;
    return true;
  }

  private discovered(item: Item, depth: number): void {
    if (depth > this.maxDepth) this.maxDepth = depth;
    this.options.onState?.(this.snapshot(item.state, item.view), item.index, depth);
    this.checkAll(this.invariants, item);
  }

  private checkAll(list: Check<C>[], item: Item): void {
    let snap: SnapshotLike<C> | undefined;
    for (const check of list) {
      if (check.at !== -1) continue;
      snap = snap ?? this.snapshot(item.state, item.view);
      if (check.holds(snap)) continue;
      check.at = item.index;
      if (this.options.stopAtFirstViolation) this.stopped = true;
    }
  }

  private tick(queued: number): void {
    this.expanded++;
    if ((this.expanded & 127) !== 1) return;
    const now = performance.now();
    const maxSeconds = this.options.maxSeconds;
    if (maxSeconds !== undefined && now - this.started > maxSeconds * 1000) {
      this.bound = { reason: 'maxSeconds', limit: maxSeconds };
      this.stopped = true;
    }
    const onProgress = this.options.onProgress;
    if (!onProgress || now - this.lastProgress < 1000) return;
    this.lastProgress = now;
    const states = this.store.size;
    onProgress({
      states,
      statesPerSecond: Math.round((states / (now - this.started)) * 1000),
      queue: this.pending + queued,
      heapBytes: process.memoryUsage().heapUsed,
    });
  }

  /** Milliseconds since the search started. */
  elapsed(): number {
    return performance.now() - this.started;
  }
}
