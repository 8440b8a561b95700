/**
 * A worker thread of the parallel search (see `parallel.ts`). It builds the run from its recipe
 * (the same machine and options as the main thread), then expands the chunks of states it is
 * sent: for each state its enabled moves in event order, each successor's fingerprint and,
 * when the shared fingerprint table does not hold it yet, the successor itself with its
 * invariant verdicts, orbit size and the journal entries its callbacks added. It stores
 * nothing: the main thread decides which successors are new.
 */
import { parentPort } from 'node:worker_threads';
import type { EventObject } from 'xstate';
import { tableHas } from './compactStore.ts';
import { compileMachine } from './compiledMachine.ts';
import type { EngineState } from './configView.ts';
import { offeredEvents } from './events.ts';
import { initialState } from './initialState.ts';
import {
  type ExpandedMessage,
  type ExpandMessage,
  type InitMessage,
  M,
  moveInts,
  P,
  parentInts,
  type WorkerMessage,
} from './parallelProtocol.ts';
import { failing, Search } from './search.ts';
import { RecordBytes, StateRecords } from './stateRecords.ts';
import { type ChangedWords, Fingerprinter, type WordsHash } from './stateStore.ts';
import type { WorkerRecipe, WorkerRun } from './types.ts';
import { isVectorContext, type VectorContext } from './vectorContext.ts';

/**
 * Buffers to write messages into: those the main thread handed back once it had merged them
 * (`ExpandMessage.spare`), or new ones. Reusing them spares both threads the allocation and the
 * collection of a few megabytes per chunk.
 */
class BufferPool {
  private readonly free: ArrayBuffer[] = [];

  /** Keeps `buffers` for later. */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) this.free.push(b);
  }

  /**
   * A buffer of at least `bytes` bytes (a multiple of 8, at least 4 KiB), a kept one when one
   * is large enough.
   */
  take(bytes: number): ArrayBuffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const b = this.free[i] as ArrayBuffer;
      if (b.byteLength < bytes) continue;
      this.free.splice(i, 1);
      return b;
    }
    return new ArrayBuffer(Math.max(4096, Math.ceil(bytes / 8) * 8));
  }
}

/** A growable array of int32 records, sent away whole after each chunk (`take`). */
class Ints {
  data: Int32Array;
  length = 0;

  constructor(private readonly pool: BufferPool) {
    this.data = new Int32Array(pool.take(4096));
  }

  /** Makes room for `n` more ints and returns the offset where they go. */
  reserve(n: number): number {
    const at = this.length;
    if (at + n > this.data.length) {
      const grown = new Int32Array(this.pool.take(4 * Math.max(2 * this.data.length, at + n)));
      grown.set(this.data.subarray(0, at));
      this.pool.give([this.data.buffer as ArrayBuffer]);
      this.data = grown;
    }
    this.length += n;
    return at;
  }

  /**
   * The ints written, over this array's buffer, which is to be transferred to the main thread;
   * the array starts again, empty, on a buffer of the pool.
   */
  take(): Int32Array {
    const out = new Int32Array(this.data.buffer, 0, this.length);
    this.data = new Int32Array(this.pool.take(this.data.byteLength));
    this.length = 0;
    return out;
  }
}

/**
 * The packed records of a chunk's new successors (`RecordBytes` over the pool's buffers), sent
 * away whole after each chunk (`take`).
 */
class Candidates extends RecordBytes {
  constructor(private readonly pool: BufferPool) {
    super(
      64 * 1024,
      (n) => new Uint8Array(pool.take(n)),
      (old) => pool.give([old.buffer as ArrayBuffer]),
    );
  }

  /**
   * The records written, over this array's buffer, which is to be transferred to the main
   * thread; the array starts again, empty, on a buffer of the pool.
   */
  take(): Uint8Array {
    const out = new Uint8Array(this.data.buffer, 0, this.length);
    this.data = new Uint8Array(this.pool.take(this.data.byteLength));
    this.length = 0;
    return out;
  }
}

/**
 * The fingerprints this worker sent as new successors, in a direct-mapped cache (a later
 * fingerprint may evict an earlier one). A fingerprint found here is stored by the time a later
 * move of this worker is merged, since the main thread merges chunks in order and a worker's
 * chunks come in order: so the worker need not send it again, although the shared table may
 * not hold it yet (a successor found twice in one level, the common case).
 */
class SentCache {
  private readonly slots = new Uint32Array(2 << 18);
  private readonly mask = (1 << 18) - 1;

  /** Whether (`h`, `l`) is noted. */
  has(h: number, l: number): boolean {
    if ((h | l) === 0) return false; // the empty slot's value
    const at = this.slotOf(h, l);
    return this.slots[at] === h && this.slots[at + 1] === l;
  }

  /** Notes (`h`, `l`), in place of whatever its slot held. */
  note(h: number, l: number): void {
    const at = this.slotOf(h, l);
    this.slots[at] = h;
    this.slots[at + 1] = l;
  }

  private slotOf(h: number, l: number): number {
    return 2 * ((h ^ Math.imul(l, 0x9e3779b1)) & this.mask);
  }
}

/** One worker's run: the search machinery of the main thread's run, without a store. */
class Expander<C, E extends EventObject> {
  private readonly search: Search<C, E>;
  private readonly records: StateRecords;
  private readonly template: VectorContext;
  private readonly prints = new Fingerprinter(true);
  /** The state being expanded, whose successors' records are written from its (`expandOne`). */
  private readonly from: { parent: Int32Array; readonly changes: ChangedWords } = {
    parent: new Int32Array(0),
    changes: this.prints,
  };
  private readonly sent = new SentCache();
  private readonly pool = new BufferPool();
  private readonly moves = new Ints(this.pool);
  private readonly candidates = new Candidates(this.pool);
  private table: Uint32Array<ArrayBufferLike> = new Uint32Array(2);
  private eventsSent = 0;
  private journalSent = 0;

  constructor(private readonly run: WorkerRun<C, E>) {
    const compiled = compileMachine(run.machine);
    this.search = new Search<C, E>(compiled, { ...run.options, workers: undefined });
    const initial = initialState(run.machine, compiled, this.search.views, run.options.input);
    if (!isVectorContext(initial.context)) {
      throw new TypeError('workers need a vector context (`vectorContext.ts`)');
    }
    this.template = initial.context;
    this.records = new StateRecords(compiled.size, initial.context.words.length);
  }

  private get journal(): readonly string[] {
    return this.run.options.journal?.log ?? [];
  }

  /** The expansion of the chunk in `msg`. */
  expand(msg: ExpandMessage): ExpandedMessage {
    if (msg.table) this.table = msg.table;
    this.pool.give(msg.spare);
    const parents = new Int32Array(msg.count * parentInts);
    const { moves, candidates, records } = this;
    for (let p = 0, r = 0; p < msg.count; p++, r += records.lengthAt(msg.records, r)) {
      const state = records.read(msg.records, r, this.search.views, this.template);
      const from = this.journal.length;
      const hint: WordsHash = {
        words: state.context.words,
        a: msg.hashes[2 * p] as number,
        b: msg.hashes[2 * p + 1] as number,
      };
      const enabled = this.expandOne(state, hint, moves, candidates);
      const at = p * parentInts;
      parents[at + P.enabled] = enabled;
      const terminal = this.search.terminal;
      if (enabled === 0 && terminal.length > 0) {
        parents[at + P.terminal] = failing(terminal, this.search.snapshot(state));
      }
      parents[at + P.journalFrom] = from;
      parents[at + P.journalTo] = this.journal.length;
    }
    const events: string[] = [];
    for (; this.eventsSent < this.search.events.size; this.eventsSent++) {
      events.push(JSON.stringify(this.search.events.at(this.eventsSent)));
    }
    const journal = this.journal.slice(this.journalSent);
    this.journalSent = this.journal.length;
    return {
      type: 'expanded',
      seq: msg.seq,
      parents,
      moves: moves.take(),
      candidates: candidates.take(),
      events,
      journal,
    };
  }

  /**
   * Writes the moves of `state` (and its new successors) and returns how many are enabled;
   * `hint` holds the state's words hashed.
   */
  private expandOne(
    state: EngineState & { readonly context: VectorContext },
    hint: WordsHash,
    moves: Ints,
    candidates: Candidates,
  ): number {
    const { search, run } = this;
    const options = run.options;
    const source = search.snapshot(state);
    const offered = offeredEvents(options.events, state.view, source);
    this.from.parent = state.context.words;
    let enabled = 0;
    for (let i = 0; i < offered.length; i++) {
      const event = offered[i] as EventObject;
      const next = search.successor(state, event);
      if (next === null) continue;
      enabled++;
      const journalFrom = this.journal.length;
      const snap = search.snapshot(next);
      options.onMove?.(source, event as E, snap);
      const prints = this.prints;
      prints.of(next.view, next.context, hint);
      const high = prints.fp[0] as number;
      const low = prints.fp[1] as number;
      const at = moves.reserve(moveInts);
      const m = moves.data;
      // Only a new successor's event is read (`store.setEvent`): the others are not interned.
      m[at + M.event] = -1;
      m[at + M.high] = high;
      m[at + M.low] = low;
      m[at + M.candidate] = -1;
      // This worker's own recent successors first: about half of all moves lead to one (a state
      // found twice in a level), and the cache answers them without the shared table's probe,
      // a cache miss once the table outgrows the processor's caches.
      if (!this.sent.has(high, low) && !tableHas(this.table, high, low)) {
        this.sent.note(high, low);
        m[at + M.event] = search.events.intern(event);
        m[at + M.orbit] = options.orbitSize?.(snap) ?? 0;
        options.onState?.(snap, -1, -1);
        // The invariants that read something the step changed, as on the main thread (`take`).
        const due = search.due(state.view, next.view, prints);
        m[at + M.violated] = failing(search.invariants, snap, 0, due);
        const words = (next.context as VectorContext).words;
        // Written from the state's record, as `prints` found the words differ from its.
        m[at + M.candidate] = candidates.append(this.records, -1, next.view, words, this.from);
        const hashed = prints.lastHint as WordsHash;
        m[at + M.wordsA] = hashed.a;
        m[at + M.wordsB] = hashed.b;
      }
      m[at + M.journalFrom] = journalFrom;
      m[at + M.journalTo] = this.journal.length;
    }
    return enabled;
  }
}

/** Loads a recipe's module (`WorkerRecipe.module`): `import`, or the module bundled in. */
export type RecipeLoader = (module: string) => Promise<Record<string, unknown>>;

/** Builds the run of `recipe` (see `WorkerRecipe`), its module loaded by `load`. */
async function build(
  recipe: WorkerRecipe,
  load: RecipeLoader,
): Promise<Expander<unknown, EventObject>> {
  const mod = await load(recipe.module);
  const make = mod[recipe.name];
  if (typeof make !== 'function') {
    throw new TypeError(`${recipe.module} exports no function ${recipe.name}`);
  }
  return new Expander(make(recipe.arg) as WorkerRun<unknown, EventObject>);
}

function send(msg: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(msg, transfer);
}

function failed(e: unknown): void {
  const err = e instanceof Error ? e : new Error(String(e));
  send({ type: 'failed', message: err.message, ...(err.stack ? { stack: err.stack } : {}) });
}

/**
 * Serves the main thread's messages on this worker thread: builds the run on `init`, its recipe's
 * module loaded by `load`, and answers each `expand`. The worker's entry calls it once
 * (`parallelWorker.js` through the TypeScript loader, or the bundle of `workerBundle.ts`).
 */
export function serve(load: RecipeLoader): void {
  let expander: Expander<unknown, EventObject> | null = null;
  parentPort?.on('message', (msg: InitMessage | ExpandMessage) => {
    if (msg.type === 'init') {
      build(msg.recipe, load).then((e) => {
        expander = e;
        send({ type: 'ready' });
      }, failed);
      return;
    }
    try {
      if (expander === null) throw new Error('expand before init');
      const out = expander.expand(msg);
      send(out, [
        out.parents.buffer as ArrayBuffer,
        out.moves.buffer as ArrayBuffer,
        out.candidates.buffer as ArrayBuffer,
      ]);
    } catch (e) {
      failed(e);
    }
  });
}
