/**
 * The search behind `explore`, in either order:
 * - breadth first (the default): the level being expanded and the next one as two queues
 *   (`stateQueue.ts`: objects, packed past a length for vector contexts); invariants are
 *   checked on each new state in discovery order, so the first violation of each is at
 *   minimal depth;
 * - depth first: a stack of discovered states, expanded last in, first out, so that only the
 *   states along the current path and their unexpanded siblings are held, not a whole level.
 * Both mark a state visited when it is discovered, keep a store with parent and event per
 * state, check terminal invariants where no offered event is enabled, and honour the bounds.
 * `advance` runs for a slice of time and can be called again (`exploreAsync`).
 */
import type { EventObject } from 'xstate';
import { CompactStore } from './compactStore.ts';
import type { CompiledMachine } from './compiledMachine.ts';
import {
  type ConfigView,
  EngineSnapshot,
  type EngineState,
  type ViewCache,
  viewsOf,
} from './configView.ts';
import { EventTable, offeredEvents } from './events.ts';
import { Interpreter } from './interpreter.ts';
import { refuseUnknown } from './knownOptions.ts';
import { ReadSets } from './readSets.ts';
import { type Item, ItemQueue, type StateQueue, VectorQueue } from './stateQueue.ts';
import {
  type ChangedWords,
  ExactStore,
  FingerprintStore,
  type HashHint,
  type StateStore,
} from './stateStore.ts';
import type { ExploreBound, ExploreOptions, Invariant, SnapshotLike } from './types.ts';
import { isVectorContext } from './vectorContext.ts';

/** An invariant of the run and the index of its first violating state (-1: none yet). */
export interface Check<C> {
  readonly name: string;
  readonly holds: Invariant<C>;
  at: number;
}

/** A vector hint moved onto the detached copy of its words (`context`'s). */
function rebound(hint: HashHint, context: unknown): HashHint {
  const words = (context as { words?: unknown }).words;
  if (hint === null || !('words' in hint) || !(words instanceof Int32Array)) return hint;
  return { words, a: hint.a, b: hint.b };
}

/**
 * Most checks one word of verdicts holds: a worker thread sends a state's verdicts as one int32
 * (`parallelProtocol.ts`), so a run on workers takes at most this many invariants, and as many
 * terminal invariants.
 */
export const checksPerWord = 32;

/**
 * Bit `i` set when check `list[from + i]` (`i` below `checksPerWord`) is due (bit `i` of `due`;
 * all by default), has no violation yet and does not hold in `snap`: the verdicts of one word,
 * as a worker thread sends them and as `Search.violated` records them.
 */
export function failing<C>(
  list: readonly Check<C>[],
  snap: SnapshotLike<C>,
  from = 0,
  due = -1,
): number {
  let bits = 0;
  const to = Math.min(list.length, from + checksPerWord);
  for (let i = from; i < to; i++) {
    const check = list[i] as Check<C>;
    if (check.at === -1 && ((due >>> (i - from)) & 1) === 1 && !check.holds(snap)) {
      bits |= 1 << (i - from);
    }
  }
  return bits;
}

function checks<C>(spec: Readonly<Record<string, Invariant<C>>> | undefined): Check<C>[] {
  return Object.entries(spec ?? {}).map(([name, holds]) => ({ name, holds, at: -1 }));
}

/** One run of the search; `start()`, then `advance()` until it returns true, fills the public
 * fields. */
export class Search<C, E extends EventObject> {
  readonly interp: Interpreter;
  readonly views: ViewCache;
  /** The visited states; `start` makes it for the run's kind of context. */
  store: StateStore;
  readonly events = new EventTable();
  readonly invariants: Check<C>[];
  readonly terminal: Check<C>[];
  /** What the invariants read (`options.reads`), or null to check each on every state. */
  private readonly reads: ReadSets | null;
  transitions = 0;
  /** Sum of `options.orbitSize` over the stored representatives (when given). */
  unreduced = 0;
  /** With `options.ample`: states expanded with an ample set alone. */
  ampleStates = 0;
  /** The longest discovery path to a stored state (breadth first: the deepest level). */
  maxDepth = 0;
  bound: ExploreBound | undefined;
  /**
   * Breadth first with `options.workers`: the level the search handed over once it held
   * `workers.from` states (`advance` then returns true), for the worker threads to expand.
   */
  handed: StateQueue | null = null;
  private stopped = false;
  private expanded = 0;
  /**
   * Breadth first: the level being expanded and the next one. Depth first: `next` is the stack.
   * `start` makes them for the run's kind of context (`stateQueue.ts`).
   */
  private level: StateQueue = this.newQueue(null);
  private next: StateQueue = this.newQueue(null);
  private readonly started = performance.now();
  private lastProgress = this.started;

  /**
   * `stopWhenAllViolated`: stop once every invariant has a violation (the shortening pass of a
   * depth-first search, see `explore.ts`).
   */
  constructor(
    readonly m: CompiledMachine,
    readonly options: ExploreOptions<C, E>,
    private readonly stopWhenAllViolated = false,
  ) {
    refuseUnknown(options);
    const workers = options.workers;
    if (workers !== undefined && workers.count > 1) this.workersDue = workers.start ?? 0;
    this.views = viewsOf(m);
    this.interp = new Interpreter(m, this.views);
    this.store = this.newStore(false);
    this.invariants = checks(options.invariants);
    this.terminal = checks(options.terminalInvariants);
    const reads = options.reads;
    this.reads =
      reads === undefined || Object.keys(reads).length === 0
        ? null
        : new ReadSets(
            m,
            this.invariants.map((c) => c.name),
            reads,
          );
    if (options.ample && ((options.workers?.count ?? 1) > 1 || options.onTransition)) {
      throw new TypeError('explore: `ample` does not combine with `workers` or `onTransition`');
    }
    const packFrom = options.packFrom;
    if (packFrom !== undefined && !(Number.isInteger(packFrom) && packFrom >= 0)) {
      throw new TypeError(
        `explore: packFrom must be a whole number of at least 0, not ${packFrom}`,
      );
    }
    const keeps: unknown = options.keepsStates;
    if (keeps !== undefined && typeof keeps !== 'boolean') {
      throw new TypeError(`explore: keepsStates must be true or false, not ${String(keeps)}`);
    }
    const most = Math.max(this.invariants.length, this.terminal.length);
    if ((options.workers?.count ?? 1) > 1 && most > checksPerWord) {
      throw new TypeError(
        `explore: workers take at most ${checksPerWord} invariants and ${checksPerWord} terminal invariants, not ${most}`,
      );
    }
  }

  /**
   * Exact keys with `exact`; the indexed fingerprint store when the run reports its transitions
   * (`onTransition` needs the index of a duplicate); otherwise the compact store, 16 bytes a
   * state at most, with its trace records on disk.
   */
  private newStore(vector: boolean): StateStore {
    if (this.options.exact) return new ExactStore(vector);
    if (this.options.onTransition) return new FingerprintStore(vector);
    return new CompactStore(vector, (this.options.workers?.count ?? 1) > 1);
  }

  /** Objects, packed past a length for a vector context (`template`: `VectorQueue`). */
  private newQueue(template: unknown): StateQueue {
    if (!isVectorContext(template)) return new ItemQueue();
    return new VectorQueue(template, this.options.packFrom);
  }

  /** Releases the store's resources (the compact store's trace file) once traces are built. */
  dispose(): void {
    this.store.dispose?.();
  }

  /** The snapshot-like view of an engine state. */
  snapshot(state: EngineState): SnapshotLike<C> {
    return new EngineSnapshot<C>(state.view, state.context as C);
  }

  /**
   * The successor of `state` by `event`, canonical under symmetry, or null when `event` is not
   * enabled. Its context may be the interpreter's scratch, valid until the next step:
   * `Interpreter.detach` keeps it.
   */
  successor(state: EngineState, event: EventObject): EngineState | null {
    const interp = this.interp;
    if (!interp.step(state, event)) return null;
    const next = { view: interp.nextView as ConfigView, context: interp.nextContext };
    return this.options.symmetry ? this.canonical(next) : next;
  }

  /**
   * `state` mapped to its representative by `options.symmetry`, or itself. A representative's
   * context may be the canonicaliser's, valid until its next call (`ExploreOptions.symmetry`):
   * `detached` copies it.
   */
  canonical(state: EngineState): EngineState {
    const sym = this.options.symmetry;
    if (!sym) return state;
    const snap = this.snapshot(state);
    const rep = sym(snap);
    if (rep === snap || (rep.value === snap.value && rep.context === snap.context)) return state;
    const view =
      rep.value === snap.value ? state.view : this.views.ofValue(rep.value, state.view.done);
    this.image = rep.context;
    return { view, context: rep.context };
  }

  /** The context of the last representative `canonical` made (not the state itself), or null. */
  private image: unknown = null;

  /**
   * `context`, a successor's (canonical under symmetry), with words of its own: a copy when
   * they are the interpreter's scratch (`Interpreter.detach`) or the canonicaliser's.
   */
  private detached(context: unknown): unknown {
    if (context !== this.image || !isVectorContext(context)) return this.interp.detach(context);
    return { ...context, words: context.words.slice() };
  }

  /**
   * Stores and checks the initial state; `advance` then expands from it. The store is made
   * afresh, for vector contexts when the initial context is one (`vectorContext.ts`).
   */
  start(initial: EngineState): void {
    const rep = this.canonical(initial);
    const begin = rep === initial ? rep : { view: rep.view, context: this.detached(rep.context) };
    this.store = this.newStore(isVectorContext(begin.context));
    this.store.add(begin.view, begin.context, -1, null);
    const root: Item = {
      view: begin.view,
      context: begin.context,
      index: 0,
      depth: 0,
      tree: this.store.lastHint,
    };
    this.discovered(root);
    this.level = this.newQueue(begin.context);
    this.next = this.newQueue(begin.context);
    const first = this.options.order === 'depth' ? this.next : this.level;
    first.push(root);
  }

  /**
   * Expands states until the search is over (returns true), the clock passes `until`, a
   * `performance.now()` time, or the worker threads are due to start (`WorkerOptions.start`)
   * (returns false; call again to go on). The clock is read every 128 expansions, so a slice
   * may overrun `until` by that many.
   */
  advance(until: number): boolean {
    const depthFirst = this.options.order === 'depth';
    while (!this.stopped) {
      if (depthFirst) {
        const item = this.next.pop();
        if (item === undefined) return true;
        this.expand(item, this.next);
        this.tick(this.next.length);
      } else {
        if (this.level.length === 0) {
          if (this.next.length === 0) return true;
          // The level just expanded is empty: it becomes the one after the next.
          const spent = this.level;
          this.level = this.next;
          this.next = spent;
          if (this.handsOver(this.level.length)) {
            this.handed = this.level;
            this.level = this.newQueue(null);
            return true;
          }
        }
        const item = this.level.shift() as Item;
        this.expand(item, this.next);
        this.tick(this.level.length + this.next.length);
      }
      if ((this.expanded & 127) === 0 && performance.now() >= until) return false;
      // Returns for the caller to start the worker threads (see `workersDue`).
      if (this.workersDueNow) return false;
    }
    return true;
  }

  private expand(item: Item, next: StateQueue): void {
    const source = this.snapshot(item);
    const offered = offeredEvents(this.options.events, item.view, source);
    const ample = this.options.ample;
    if (ample !== undefined) {
      const moves = this.ampleMoves(item, ample(source, offered as readonly E[]));
      if (moves !== null) {
        this.ampleStates++;
        for (const [event, state] of moves) {
          if (this.take(item, source, event, state.view, state.context, next)) return;
        }
        return;
      }
    }
    let enabled = 0;
    for (let i = 0; i < offered.length; i++) {
      const event = offered[i] as EventObject;
      const to = this.successor(item, event);
      if (to === null) continue;
      enabled++;
      if (this.take(item, source, event, to.view, to.context, next)) return;
    }
    if (enabled === 0 && this.terminal.length > 0) this.checkAll(this.terminal, item);
  }

  /**
   * The moves of the first candidate ample set with an enabled event (each with its successor,
   * detached and, under symmetry, canonical), or null to expand fully: no candidate has an
   * enabled event (C0), or a successor of the chosen one is stored already (the cycle proviso,
   * C3: see `ExploreOptions.ample`).
   */
  private ampleMoves(
    item: Item,
    candidates: readonly (readonly E[])[],
  ): [EventObject, EngineState][] | null {
    for (const candidate of candidates) {
      const moves: [EventObject, EngineState][] = [];
      for (const event of candidate) {
        const state = this.successor(item, event);
        if (state === null) continue;
        if (this.store.has(state.view, state.context)) return null;
        moves.push([event, { view: state.view, context: this.detached(state.context) }]);
      }
      if (moves.length > 0) return moves;
    }
    return null;
  }

  /**
   * Counts the move by `event` from `item` to (`view`, `context`) (canonical under symmetry),
   * stores the target if it is new and queues it on `next`. Returns true when the search must
   * stop expanding (a bound, or a stop condition).
   */
  private take(
    item: Item,
    source: SnapshotLike<C>,
    event: EventObject,
    view: ConfigView,
    context: unknown,
    next: StateQueue,
  ): boolean {
    this.transitions++;
    if (this.bounded(view, context)) return true;
    this.options.onMove?.(source, event as E, this.snapshot({ view, context }));
    const added = this.store.add(view, context, item.index, item.tree);
    this.options.onTransition?.(item.index, event as E, added >= 0 ? added : -1 - added);
    if (added < 0) return false;
    this.store.setEvent(added, this.events.intern(event));
    // The invariants that read something the step changed (read before `detach`).
    const due = this.due(item.view, view, this.store);
    // A new state keeps its context, detached from scratch words, unless the queue packs it
    // at once and `onState` keeps nothing (`keepsStates`): the queue and the checks below
    // read it before the next step.
    const own = this.borrowable(next) ? context : this.owned(context, item);
    const tree = own === context ? this.store.lastHint : rebound(this.store.lastHint, own);
    const found: Item = { view, context: own, index: added, depth: item.depth + 1, tree };
    next.push(found);
    this.discovered(found, due);
    return this.stopped;
  }

  /** Whether a new state queued on `next` may keep the step's scratch words (see `take`). */
  private borrowable(next: StateQueue): boolean {
    return this.options.keepsStates === false && next.packsNext();
  }

  /**
   * `context`, a successor's, with words of its own: a copy when they are the interpreter's
   * scratch (`Interpreter.detach`), or when the step left the words of `item`, its source, as
   * they were and those are a packed queue's scratch, which the next take overwrites.
   */
  private owned(context: unknown, item: Item): unknown {
    const own = this.detached(context);
    if (!isVectorContext(own) || !isVectorContext(item.context)) return own;
    const words = own.words;
    if (words !== item.context.words) return own;
    if (!this.level.borrows(words) && !this.next.borrows(words)) return own;
    return { ...own, words: words.slice() };
  }

  /**
   * Whether the start of the worker threads (`options.workers`) is over: they have all built
   * their run, or one failed to, which the hand-over then reports; null until they are
   * started (`startedWorkers`).
   */
  private workersReady: (() => boolean) | null = null;

  /** Whether the worker threads have been started (`startedWorkers`). */
  get workersStarted(): boolean {
    return this.workersReady !== null;
  }

  /** Whether the worker threads are due to start (`WorkerOptions.start`) and not started yet. */
  get workersDueNow(): boolean {
    return this.store.size >= this.workersDue;
  }

  /**
   * The number of stored states at which `advance` returns for the worker threads to be
   * started (`WorkerOptions.start`); infinite without workers or once they have started.
   */
  private workersDue = Number.POSITIVE_INFINITY;

  /** Whether the worker threads were started after the search (`WorkerOptions.start`). */
  private workersLate = false;

  /**
   * Records that the caller (`explore.ts`) has started the worker threads; `ready` says when
   * their start is over (see `workersReady`).
   */
  startedWorkers(ready: () => boolean): void {
    this.workersLate = this.store.size > 0;
    this.workersReady = ready;
    this.workersDue = Number.POSITIVE_INFINITY;
  }

  /**
   * Whether a next level of `size` states goes to the worker threads (see `WorkerOptions`).
   * Workers started late are not waited for: the search goes on alone until they are ready.
   */
  private handsOver(size: number): boolean {
    const w = this.options.workers;
    const ready = this.workersReady;
    if (w === undefined || w.count <= 1 || ready === null) return false;
    if (size >= (w.from ?? 4096) && !this.workersLate) return true;
    return size >= (w.early ?? 512) && ready();
  }

  private bounded(view: ConfigView, context: unknown): boolean {
    const max = this.options.maxStates ?? Number.POSITIVE_INFINITY;
    if (this.store.size < max || this.store.has(view, context)) return false;
    this.bound = { reason: 'maxStates', limit: max };
    this.stopped = true;
    return true;
  }

  /**
   * The bits of the first 32 invariants due on a new state in `to`, reached by a step from a
   * state in `from` whose fingerprint's differ found `changed` (`ReadSets.due`); -1, every one,
   * without `options.reads`. A worker thread asks it for the successors it checks.
   */
  due(from: ConfigView, to: ConfigView, changed: ChangedWords): number {
    const reads = this.reads;
    return reads === null ? -1 : reads.due(from, to, changed.changedCount, changed.changedWords);
  }

  /** Records a new state; `due`: the bits of the first 32 invariants to check (`ReadSets`). */
  private discovered(item: Item, due = -1): void {
    const depth = item.depth;
    if (depth > this.maxDepth) this.maxDepth = depth;
    // One snapshot for every callback: they may cache what they derive from it by identity.
    const snap = this.snapshot(item);
    const orbit = this.options.orbitSize;
    if (orbit) this.unreduced += orbit(snap);
    this.options.onState?.(snap, item.index, depth);
    this.checkAll(this.invariants, item, snap, due);
  }

  /**
   * Records state `index` as the first violation of each check of `list` whose bit is set in
   * `bits` (bit i: `list[from + i]`, as `failing` sets them, here or on a worker thread) and
   * that has none yet.
   */
  violated(list: Check<C>[], bits: number, index: number, from = 0): void {
    for (let i = from; bits !== 0 && i < list.length; i++, bits >>>= 1) {
      const check = list[i] as Check<C>;
      if ((bits & 1) === 0 || check.at !== -1) continue;
      check.at = index;
      if (this.options.stopAtFirstViolation) this.stopped = true;
    }
  }

  /** Ends the search: a bound was reached (`bound`), or, with none, a stop condition. */
  stop(bound?: ExploreBound): void {
    if (bound && !this.stopped) this.bound = bound;
    this.stopped = true;
  }

  /** Whether the search has stopped (a bound, or `stopAtFirstViolation`). */
  get isStopped(): boolean {
    return this.stopped;
  }

  private checkAll(list: Check<C>[], item: Item, given?: SnapshotLike<C>, due = -1): void {
    if (list.length === 0) return;
    const snap = given ?? this.snapshot(item);
    for (let from = 0; from < list.length; from += checksPerWord) {
      this.violated(list, failing(list, snap, from, from === 0 ? due : -1), item.index, from);
    }
    if (this.stopWhenAllViolated && this.allViolated()) this.stopped = true;
  }

  private allViolated(): boolean {
    const all = [...this.invariants, ...this.terminal];
    return all.length > 0 && all.every((c) => c.at !== -1);
  }

  private tick(queued: number): void {
    this.expanded++;
    if ((this.expanded & 127) !== 1) return;
    this.checkLimits(queued);
  }

  /**
   * Checks the time, signal and memory bounds and reports progress when due, with `queue`
   * states discovered and not yet expanded by `threads` threads.
   */
  checkLimits(queue: number, threads = 1): void {
    const now = performance.now();
    const { maxSeconds, maxMemory, onProgress, signal } = this.options;
    if (maxSeconds !== undefined && now - this.started > maxSeconds * 1000) {
      this.bound = { reason: 'maxSeconds', limit: maxSeconds };
      this.stopped = true;
    }
    if (signal?.aborted && !this.stopped) {
      this.bound = { reason: 'interrupted', limit: Math.round(now - this.started) / 1000 };
      this.stopped = true;
    }
    const report =
      onProgress !== undefined &&
      now - this.lastProgress >= (this.options.progressIntervalMs ?? 1000);
    if (maxMemory === undefined && !report) return;
    // The heap holds the objects; array buffers hold the store's table and the packed queue.
    const { heapUsed: heapBytes, arrayBuffers: bufferBytes } = process.memoryUsage();
    const held = heapBytes + bufferBytes;
    if (maxMemory !== undefined && held > maxMemory * 2 ** 20 && !this.stopped) {
      this.bound = { reason: 'maxMemory', limit: maxMemory };
      this.stopped = true;
    }
    if (!report) return;
    this.lastProgress = now;
    const states = this.store.size;
    onProgress({
      states,
      statesPerSecond: Math.round((states / (now - this.started)) * 1000),
      queue,
      heapBytes,
      bufferBytes,
      threads,
    });
  }

  /** Milliseconds since the search started. */
  elapsed(): number {
    return performance.now() - this.started;
  }
}
