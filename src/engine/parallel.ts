/**
 * The parallel breadth-first search: the main thread hands the frontier, in chunks of state
 * records (`stateRecords.ts`), to worker threads (`parallelWorker.ts`), which expand them and
 * look each successor up in the store's fingerprint table, shared with them in a
 * `SharedArrayBuffer`. The main thread alone writes the store: it merges the chunks' results in
 * chunk order, which is the order one thread expands the states in, so every successor gets the
 * index, parent and event one thread would give it, the first violation of each invariant is
 * the one one thread finds, and a bound stops the search at the same move. That makes states,
 * transitions, verdicts, traces and the journal's records those of one thread.
 *
 * The merge is level-synchronous in effect, not in time: a chunk of the next level is sent out
 * as soon as it is full, while the current level is still being merged. A worker that looks a
 * successor up before the main thread has stored an equal state finds nothing and sends the
 * successor whole (its invariants evaluated); the merge then finds it stored and drops it.
 * A worker that finds it has found a state stored earlier in merge order, since only the main
 * thread writes the table and it writes in merge order: so a hit is always a duplicate, as long
 * as the lookup answers what its probe read (`tableHas`), not what the slot holds a moment later.
 *
 * The workers start with the search (`WorkerPool`), so that bundling their code
 * (`workerBundle.ts`), loading it and building the machine, about a second in all on two cores,
 * overlap the first levels, which the main thread searches alone; when they take over changes
 * no result (see `WorkerOptions`). The buffers of the workers'
 * messages, up to a few megabytes each, go back to the worker once merged, for reuse
 * (`ExpandMessage.spare`): allocating them per chunk cost both sides collections. The chunks
 * themselves hold packed records (`stateRecords.ts`) in buffers of their own size, since the
 * queued chunks are most of the search's memory.
 */
import type { Worker } from 'node:worker_threads';
import type { EventObject } from 'xstate';
import { CompactStore } from './compactStore.ts';
import {
  type ExpandedMessage,
  type ExpandMessage,
  M,
  moveInts,
  P,
  parentInts,
  type WorkerMessage,
} from './parallelProtocol.ts';
import type { Search } from './search.ts';
import type { Item } from './stateQueue.ts';
import { RecordBytes, StateRecords } from './stateRecords.ts';
import { wordsHashOf } from './stateStore.ts';
import type { WorkerOptions } from './types.ts';
import { isVectorContext } from './vectorContext.ts';
import { startWorker, workerEntry } from './workerBundle.ts';

/** Chunks a worker holds at once: one being expanded and one waiting, so it never idles. */
const perWorker = 2;

/** States per chunk by default (`WorkerOptions.chunk`). */
const defaultChunk = 1024;

/**
 * A chunk of the frontier: `count` packed records of states at `depth` (`stateRecords.ts`),
 * back to back in `records`, with their indices and their words hashed (two halves a state).
 */
interface Chunk {
  readonly seq: number;
  readonly depth: number;
  readonly count: number;
  readonly indices: Int32Array;
  readonly hashes: Uint32Array;
  readonly records: Uint8Array;
}

/**
 * The frontier as it is discovered, cut into chunks in discovery order. A chunk's records are
 * packed (155 bytes a state on average on `incident-large`, against 2,216 unpacked) and copied
 * into a buffer of their own size when the chunk is made: the frontier is the search's largest
 * memory, a level or two of states.
 */
class Frontier {
  readonly ready: Chunk[] = [];
  /** The chunk being filled; `flush` copies it out, and it is reused. */
  private readonly buf: RecordBytes;
  /** The chunk being filled's indices and hashes (two halves a state); `flush` copies them out. */
  private readonly indices: Int32Array;
  private readonly hashes: Uint32Array;
  private readonly hash = new Uint32Array(2);
  private count = 0;
  private depth = -1;
  private seq = 0;

  constructor(
    private readonly records: StateRecords,
    private readonly chunk: number,
  ) {
    this.buf = new RecordBytes(records.maxSize * 16);
    this.indices = new Int32Array(chunk);
    this.hashes = new Uint32Array(2 * chunk);
  }

  /** Records not yet in a ready chunk. */
  get partial(): number {
    return this.count;
  }

  /**
   * Appends state `index` at `depth` from the record at byte `at` of `from`, whose words hash
   * to (`a`, `b`).
   */
  add(from: Uint8Array, at: number, index: number, depth: number, a: number, b: number): void {
    this.slot(index, depth, a, b);
    const length = this.records.lengthAt(from, at);
    const buf = this.buf;
    const to = buf.reserve(length);
    buf.data.set(from.subarray(at, at + length), to);
    this.records.setIndex(buf.data, to, index);
    buf.commit(to + length);
    this.filled();
  }

  /** Appends a discovered item of one thread's search. */
  addItem(item: Item): void {
    const words = (item.context as { words: Int32Array }).words;
    wordsHashOf(item.tree, words, this.hash);
    this.slot(item.index, item.depth, this.hash[0] as number, this.hash[1] as number);
    this.buf.append(this.records, item.index, item.view, words);
    this.filled();
  }

  /** Makes what was added so far a ready chunk. */
  flush(): void {
    if (this.count === 0) return;
    const records = this.buf.data.slice(0, this.buf.length);
    this.ready.push({
      seq: this.seq++,
      depth: this.depth,
      count: this.count,
      indices: this.indices.slice(0, this.count),
      hashes: this.hashes.slice(0, 2 * this.count),
      records,
    });
    this.buf.commit(0);
    this.count = 0;
  }

  private slot(index: number, depth: number, a: number, b: number): void {
    if (this.count > 0 && depth !== this.depth) this.flush();
    if (this.count === 0) this.depth = depth;
    this.hashes[2 * this.count] = a;
    this.hashes[2 * this.count + 1] = b;
    this.indices[this.count++] = index;
  }

  private filled(): void {
    if (this.count === this.chunk) this.flush();
  }
}

/** A worker thread with what the main thread keeps about it. */
interface Hand {
  readonly worker: Worker;
  inFlight: number;
  table: Uint32Array | null;
  /** The worker's event ids → the search's. */
  readonly events: number[];
  /** Every journal entry the worker sent, by its position in the worker's log. */
  readonly journal: string[];
  /** Buffers of the worker's merged messages, to hand back with its next chunk. */
  readonly spare: ArrayBuffer[];
}

/**
 * The workers' messages, in arrival order, with a way to wait for the next; `ready` messages
 * are counted instead, and a `failed` one fails the inbox.
 */
class Inbox {
  private readonly queue: { hand: Hand; msg: WorkerMessage }[] = [];
  private wake: (() => void) | null = null;
  private error: Error | null = null;
  /** Workers that have built their run. */
  started = 0;

  listen(hand: Hand): void {
    hand.worker.on('message', (msg: WorkerMessage) => {
      if (msg.type === 'ready') this.started++;
      else if (msg.type === 'failed') {
        const e = new Error(msg.message);
        if (msg.stack) e.stack = msg.stack;
        this.fail(e);
      } else this.queue.push({ hand, msg });
      this.wake?.();
    });
    hand.worker.on('error', (e: Error) => this.fail(e));
    hand.worker.on('exit', (code) => {
      if (code !== 0) this.fail(new Error(`a search worker exited with code ${code}`));
    });
  }

  fail(e: Error): void {
    this.error = this.error ?? e;
    this.wake?.();
  }

  /** Whether a worker has failed (`next` and `allStarted` then reject). */
  get failed(): boolean {
    return this.error !== null;
  }

  /** The next message; rejects when a worker failed. */
  async next(): Promise<{ hand: Hand; msg: WorkerMessage }> {
    for (;;) {
      if (this.error) throw this.error;
      const first = this.queue.shift();
      if (first) return first;
      await this.message();
    }
  }

  /** Waits until `count` workers have started; rejects when one failed. */
  async allStarted(count: number): Promise<void> {
    for (;;) {
      if (this.error) throw this.error;
      if (this.started >= count) return;
      await this.message();
    }
  }

  private async message(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    this.wake = null;
  }
}

/**
 * The worker threads of a search, started with it so that they build their run (load the code,
 * compile the machine) while the main thread searches the first levels alone. They start once
 * their code is bundled (`workerBundle.ts`), which esbuild does meanwhile in a process of its
 * own.
 */
export class WorkerPool {
  private readonly inbox = new Inbox();
  /** The workers, once started (empty before). */
  readonly hands: Hand[] = [];
  private readonly started: Promise<void>;

  /** Starts `options.count` workers on `options.recipe`. */
  constructor(readonly options: WorkerOptions) {
    this.started = workerEntry(options.recipe).then((entry) => this.start(entry));
  }

  private start(entry: URL): void {
    for (let i = 0; i < this.options.count; i++) {
      const worker = startWorker(entry);
      const hand: Hand = { worker, inFlight: 0, table: null, events: [], journal: [], spare: [] };
      this.hands.push(hand);
      this.inbox.listen(hand);
      worker.postMessage({ type: 'init', recipe: this.options.recipe });
    }
  }

  /** Whether every worker has built its run (false for good once one failed to). */
  get ready(): boolean {
    return this.hands.length > 0 && this.inbox.started >= this.hands.length;
  }

  /** Whether the start is over: every worker built its run, or one failed (`whenReady` says). */
  get settled(): boolean {
    return this.ready || this.inbox.failed;
  }

  /** Waits for every worker to build its run; rejects with the error of one that could not. */
  async whenReady(): Promise<void> {
    await this.started;
    return this.inbox.allStarted(this.hands.length);
  }

  /** The next message of a worker; rejects when one failed. */
  next(): Promise<{ hand: Hand; msg: WorkerMessage }> {
    return this.inbox.next();
  }

  /** Ends every worker (once they have started). */
  async terminate(): Promise<void> {
    // A pool that could not start has no worker to end (`whenReady` rejected with why).
    await this.started.catch(() => undefined);
    await Promise.all(this.hands.map((h) => h.worker.terminate()));
  }
}

/** The main thread's side of the parallel search of `search`, from its handed level. */
class Merger<C, E extends EventObject> {
  private readonly store: CompactStore;
  private readonly chunkOf = new Map<number, Chunk & { readonly hand: Hand }>();

  constructor(
    private readonly search: Search<C, E>,
    private readonly frontier: Frontier,
  ) {
    if (!(search.store instanceof CompactStore)) {
      throw new TypeError('workers need the compact fingerprint store');
    }
    this.store = search.store;
  }

  /** Chunks sent and not merged yet. */
  get inFlight(): number {
    return this.chunkOf.size;
  }

  /** Sends ready chunks to workers with room for them. */
  dispatch(hands: readonly Hand[]): void {
    const table = this.store.table();
    for (;;) {
      const chunk = this.frontier.ready[0];
      const hand = hands.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      if (chunk === undefined || hand.inFlight >= perWorker) return;
      this.frontier.ready.shift();
      const fresh = hand.table !== table;
      hand.table = table;
      hand.inFlight++;
      this.chunkOf.set(chunk.seq, { ...chunk, hand });
      const spare = hand.spare.splice(0);
      const msg: ExpandMessage = {
        type: 'expand',
        seq: chunk.seq,
        count: chunk.count,
        records: chunk.records,
        hashes: chunk.hashes,
        ...(fresh ? { table } : {}),
        spare,
      };
      const sent = [chunk.records.buffer, chunk.hashes.buffer] as ArrayBuffer[];
      hand.worker.postMessage(msg, [...sent, ...spare]);
    }
  }

  /** Takes in what a worker's message adds to its event and journal tables. */
  absorb(hand: Hand, msg: ExpandedMessage): void {
    hand.inFlight--;
    for (const json of msg.events) hand.events.push(this.search.events.intern(JSON.parse(json)));
    for (const entry of msg.journal) hand.journal.push(entry);
  }

  /** Merges the expansion of chunk `msg.seq` as one thread would have expanded it. */
  merge(msg: ExpandedMessage): void {
    const chunk = this.chunkOf.get(msg.seq);
    if (!chunk) throw new Error(`no chunk ${msg.seq} in flight`);
    this.chunkOf.delete(msg.seq);
    const { search, store } = this;
    const { moves, parents } = msg;
    const max = search.options.maxStates ?? Number.POSITIVE_INFINITY;
    const orbit = search.options.orbitSize !== undefined;
    const depth = chunk.depth + 1;
    let at = 0;
    for (let p = 0; p < chunk.count; p++) {
      const parent = chunk.indices[p] as number;
      const enabled = parents[p * parentInts + P.enabled] as number;
      for (let k = 0; k < enabled; k++, at += moveInts) {
        search.transitions++;
        // The move records are signed; the table holds the fingerprint's words unsigned.
        const high = (moves[at + M.high] as number) >>> 0;
        const low = (moves[at + M.low] as number) >>> 0;
        const candidate = moves[at + M.candidate] as number;
        if (store.size >= max && candidate >= 0 && !store.hasFingerprint(high, low)) {
          search.stop({ reason: 'maxStates', limit: max });
          return;
        }
        this.replay(chunk.hand, moves[at + M.journalFrom], moves[at + M.journalTo]);
        if (candidate < 0) continue;
        const added = store.addFingerprint(high, low, parent);
        if (added < 0) continue;
        store.setEvent(added, chunk.hand.events[moves[at + M.event] as number] as number);
        if (depth > search.maxDepth) search.maxDepth = depth;
        if (orbit) search.unreduced += moves[at + M.orbit] as number;
        const a = moves[at + M.wordsA] as number;
        const b = moves[at + M.wordsB] as number;
        this.frontier.add(msg.candidates, candidate, added, depth, a, b);
        search.violated(search.invariants, moves[at + M.violated] as number, added);
        if (search.isStopped) return;
      }
      if (enabled === 0 && search.terminal.length > 0) {
        const pa = p * parentInts;
        this.replay(chunk.hand, parents[pa + P.journalFrom], parents[pa + P.journalTo]);
        search.violated(search.terminal, parents[pa + P.terminal] as number, parent);
        if (search.isStopped) return;
      }
    }
    // Merged: the message's buffers go back to the worker for its next messages.
    chunk.hand.spare.push(msg.moves.buffer as ArrayBuffer, msg.candidates.buffer as ArrayBuffer);
  }

  private replay(hand: Hand, from = 0, to = 0): void {
    const journal = this.search.options.journal;
    if (!journal) return;
    for (let j = from; j < to; j++) journal.apply(hand.journal[j] as string);
  }
}

/**
 * Finishes the breadth-first `search` on the threads of `pool`, from the level it handed over
 * (`search.handed`), once they have started. Updates the search as `advance` would have (store,
 * counts, violations, bound); rejects when a worker fails (a guard that throws, say). The
 * caller terminates the pool.
 */
export async function expandOnWorkers<C, E extends EventObject>(
  search: Search<C, E>,
  pool: WorkerPool,
): Promise<void> {
  const options = pool.options;
  const handed = search.handed;
  search.handed = null;
  const first = handed?.shift();
  if (handed == null || first === undefined) return;
  if (!isVectorContext(first.context)) throw new TypeError('workers need a vector context');
  const records = new StateRecords(search.m.size, first.context.words.length);
  const chunk = options.chunk ?? defaultChunk;
  const frontier = new Frontier(records, chunk);
  for (let item: Item | undefined = first; item !== undefined; item = handed.shift()) {
    frontier.addItem(item);
  }
  frontier.flush();
  const hands = pool.hands;
  const merger = new Merger(search, frontier);
  const done = new Map<number, ExpandedMessage>();
  let nextSeq = 0;
  await pool.whenReady();
  for (;;) {
    merger.dispatch(hands);
    if (merger.inFlight === 0) break;
    const { hand, msg } = await pool.next();
    if (msg.type !== 'expanded') continue;
    merger.absorb(hand, msg);
    done.set(msg.seq, msg);
    for (let ready = done.get(nextSeq); ready; ready = done.get(nextSeq)) {
      done.delete(nextSeq++);
      merger.merge(ready);
      if (search.isStopped) return;
    }
    // A worker with nothing to do takes the part of a chunk found so far.
    if (frontier.ready.length === 0 && hands.some((h) => h.inFlight === 0)) frontier.flush();
    search.checkLimits(frontier.partial + frontier.ready.length * chunk, hands.length);
    if (search.isStopped) return;
  }
}
