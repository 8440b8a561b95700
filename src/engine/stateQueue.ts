/**
 * The discovered states a search has not expanded yet: a breadth-first level read first in,
 * first out (`shift`), or a depth-first stack read last in, first out (`pop`). Three kinds:
 * - `ItemQueue`: the states as objects, their contexts detached from the interpreter's
 *   scratch; the queue of any context that is not a vector;
 * - `PackedQueue`: each state a packed record (`stateRecords.ts`) in one growable byte buffer,
 *   128 bytes a state on average on `incident-large`; a state taken out is unpacked into one
 *   scratch vector, with the hash of its words kept beside it. A queue of millions of states
 *   holds no object each, so it neither fills the heap nor costs the collector;
 * - `VectorQueue`: the queue of a vector context, the first 4,096 states as objects (packing
 *   costs about 1 µs a state, which a short queue does not repay) and the rest packed.
 */
import type { ConfigView, EngineState } from './configView.ts';
import { type Flagged, RecordBytes, StateRecords } from './stateRecords.ts';
import { type HashHint, wordsHashOf } from './stateStore.ts';
import type { VectorContext } from './vectorContext.ts';

/** A discovered state waiting to be expanded. */
export interface Item extends EngineState {
  readonly index: number;
  /** Length of the discovery path from the initial state. */
  readonly depth: number;
  /** The store's hint for hashing its successors (fingerprint mode). */
  readonly tree: HashHint;
}

/** Discovered states not yet expanded; see the module comment. */
export interface StateQueue {
  /** States queued and not taken yet. */
  readonly length: number;
  /**
   * Queues `item`, whose context is its own (not the interpreter's scratch): the item queue
   * keeps the item, the packed queue packs it (and keeps its hint's hash).
   */
  push(item: Item): void;
  /** The first state queued and not taken, or undefined. Valid until the next take. */
  shift(): Item | undefined;
  /** The last state queued and not taken, or undefined. Valid until the next take. */
  pop(): Item | undefined;
  /** Whether `words` are scratch words of this queue, which the next take overwrites. */
  borrows(words: Int32Array): boolean;
  /**
   * Whether the next `push` packs its item: copies what it needs of it during the call and
   * keeps nothing of it, so that its context need not be its own.
   */
  packsNext(): boolean;
}

/** States as objects. */
export class ItemQueue implements StateQueue {
  private items: (Item | undefined)[] = [];
  private at = 0;

  get length(): number {
    return this.items.length - this.at;
  }

  push(item: Item): void {
    this.items.push(item);
  }

  borrows(): boolean {
    return false;
  }

  packsNext(): boolean {
    return false;
  }

  shift(): Item | undefined {
    if (this.at >= this.items.length) return undefined;
    const item = this.items[this.at];
    this.items[this.at++] = undefined;
    if (this.at === this.items.length) this.reset();
    return item;
  }

  pop(): Item | undefined {
    if (this.at >= this.items.length) return undefined;
    const item = this.items.pop();
    if (this.at === this.items.length) this.reset();
    return item;
  }

  private reset(): void {
    this.items = [];
    this.at = 0;
  }
}

/**
 * Growable int32 columns: an entry's record offset, its depth and the two halves of its words'
 * hash (`hashWords`), which the store computed when it stored the state: kept, they spare
 * hashing the words again when the state is taken out.
 */
class Entries {
  offsets: Int32Array = new Int32Array(1024);
  depths: Int32Array = new Int32Array(1024);
  hashes: Int32Array = new Int32Array(2048);
  length = 0;

  push(offset: number, depth: number, a: number, b: number): void {
    const e = this.length++;
    if (e === this.offsets.length) {
      this.offsets = grown(this.offsets);
      this.depths = grown(this.depths);
      this.hashes = grown(this.hashes);
    }
    this.offsets[e] = offset;
    this.depths[e] = depth;
    this.hashes[2 * e] = a;
    this.hashes[2 * e + 1] = b;
  }
}

function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

/**
 * Vector states as packed records in one byte buffer. `template` is a context of the run (its
 * static fields are every state's); a state taken out has a new context object over the
 * queue's scratch words, and, as its hint, the hash of those words.
 */
export class PackedQueue implements StateQueue {
  private readonly records: StateRecords;
  private readonly bytes: RecordBytes;
  private readonly entries = new Entries();
  /** Entries taken from the front (`shift`); the others are from `first` on. */
  private first = 0;
  private readonly hash = new Uint32Array(2);
  /** Each entry's view, by entry. */
  private readonly views: (ConfigView | undefined)[] = [];
  /** What `write` is given for a view: the records' flags are empty. */
  private static readonly noFlags: Flagged = { flags: new Uint8Array(0), done: false };

  constructor(private readonly template: VectorContext) {
    // The queue keeps each state's view itself (views are interned): its records hold no flags.
    this.records = new StateRecords(0, template.words.length);
    this.bytes = new RecordBytes(Math.max(1 << 16, 4 * this.records.maxSize));
  }

  get length(): number {
    return this.entries.length - this.first;
  }

  push(item: Item): void {
    const { view, context, index, depth, tree: hint } = item;
    const words = (context as VectorContext).words;
    // The hint is the hash of these words when the store fingerprints them; else hash them.
    const hash = this.hash;
    wordsHashOf(hint, words, hash);
    const at = this.bytes.append(this.records, index, PackedQueue.noFlags, words);
    this.entries.push(at, depth, hash[0] as number, hash[1] as number);
    this.views[this.entries.length - 1] = view;
  }

  shift(): Item | undefined {
    if (this.length === 0) return undefined;
    const item = this.item(this.first++);
    if (this.length === 0) this.clear();
    return item;
  }

  pop(): Item | undefined {
    if (this.length === 0) return undefined;
    const e = --this.entries.length;
    const item = this.item(e);
    // The record's bytes are free once read: the next push writes over them.
    this.bytes.commit(this.entries.offsets[e] as number);
    if (this.length === 0) this.clear();
    return item;
  }

  borrows(words: Int32Array): boolean {
    return this.records.borrows(words);
  }

  packsNext(): boolean {
    return true;
  }

  private item(e: number): Item {
    const at = this.entries.offsets[e] as number;
    const bytes = this.bytes.data;
    const words = this.records.wordsAt(bytes, at);
    const { depths, hashes } = this.entries;
    const view = this.views[e] as ConfigView;
    this.views[e] = undefined;
    return {
      view,
      context: { ...this.template, words },
      index: this.records.indexAt(bytes, at),
      depth: depths[e] as number,
      tree: { words, a: hashes[2 * e] as number, b: hashes[2 * e + 1] as number },
    };
  }

  private clear(): void {
    this.entries.length = 0;
    this.views.length = 0;
    this.first = 0;
    this.bytes.commit(0);
  }
}

/**
 * Vector states as objects while the queue is short, and packed once it holds `limit` of them:
 * packing and unpacking cost about 1 µs a state (for 332 words), which a short queue does not
 * repay, while a long one repays it in memory and in collector time. Order is kept: once a
 * state is packed, every later one is too until the packed part is empty, so the objects are
 * always the oldest states queued.
 */
export class VectorQueue implements StateQueue {
  private readonly items = new ItemQueue();
  private readonly packed: PackedQueue;

  constructor(
    template: VectorContext,
    private readonly limit = 4096,
  ) {
    this.packed = new PackedQueue(template);
  }

  get length(): number {
    return this.items.length + this.packed.length;
  }

  push(item: Item): void {
    if (this.packsNext()) this.packed.push(item);
    else this.items.push(item);
  }

  packsNext(): boolean {
    return this.packed.length > 0 || this.items.length >= this.limit;
  }

  shift(): Item | undefined {
    return this.items.shift() ?? this.packed.shift();
  }

  pop(): Item | undefined {
    return this.packed.pop() ?? this.items.pop();
  }

  borrows(words: Int32Array): boolean {
    return this.packed.borrows(words);
  }
}
