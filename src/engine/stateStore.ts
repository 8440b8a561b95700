/**
 * The visited-state store: each distinct state gets a dense index (0 = initial) with the index
 * of the state it was first reached from and the interned event that reached it, so that a
 * shortest trace can be rebuilt. Two implementations here, and `CompactStore`
 * (`compactStore.ts`), the default, with its trace records on disk:
 * - `FingerprintStore` keeps only a 64-bit fingerprint per state (configuration hash combined
 *   with the context's structural hash), in typed arrays with an open-addressing (linear
 *   probing) table of indices: 16 bytes per state plus 4 per table slot, with at most half the
 *   slots used, and growth slack of at most 2x. It finds the index of a duplicate, which runs
 *   that report their transitions need;
 * - `ExactStore` keeps the full key (configuration key and context JSON) in a `Map`.
 * A store made for vector contexts (`vectorContext.ts`; decided once per search, from the
 * initial context) identifies a context by its words alone: the fingerprint combines the
 * configuration hash with `hashWords`, and the exact key joins the words, so the static fields
 * (a layout, say) are neither hashed nor serialised.
 */
import { combine, combineHalves, type Hash64 } from './fingerprint.ts';
import { type HashNode, StructuralHasher } from './structuralHash.ts';
import { hashWords, hashWordsFrom, type VectorContext } from './vectorContext.ts';
import { type WordDiffer, wordDiffer } from './wordDiff.ts';

/** A vector context's words with their hash halves: the hint for its successors' hashes. */
export interface WordsHash {
  readonly words: Int32Array;
  readonly a: number;
  readonly b: number;
}

/**
 * What a stored state leaves its successors, so that they are hashed from it instead of
 * afresh: the context's hash tree (structural mode), its words and their hash (vector mode),
 * or nothing (exact mode).
 */
export type HashHint = HashNode | WordsHash | null;

/** Writes the hash halves of `words` into `out`: `hint`'s when it hashed these very words. */
export function wordsHashOf(hint: HashHint, words: Int32Array, out: Uint32Array): void {
  if (hint !== null && 'words' in hint && hint.words === words) {
    out[0] = hint.a;
    out[1] = hint.b;
  } else hashWords(words, out);
}

/** A configuration as the store sees it: its key and the key's hash. */
export interface KeyedConfig {
  readonly key: string;
  readonly hash: Hash64;
}

/**
 * The words a fingerprint's differ found changed between a successor and its parent (the hint):
 * their indices are `changedWords[0 .. changedCount)`; `changedCount` is -1 when the last
 * fingerprint did not compare them. A `StateStore` and a `Fingerprinter` both expose them.
 */
export interface ChangedWords {
  readonly changedCount: number;
  readonly changedWords: Int32Array;
}

/** What the search needs from a store. */
export interface StateStore extends ChangedWords {
  readonly size: number;
  /**
   * Whether `add` tells which stored state a duplicate equals. A store that does not
   * (`CompactStore`) returns -1 for every duplicate.
   */
  readonly indexed: boolean;
  /**
   * Adds the state (`config`, `context`). Returns its new index, or `-1 - index` of the equal
   * state already stored (-1 when the store is not `indexed`). `hint` is the parent's
   * `lastHint`, if any.
   */
  add(config: KeyedConfig, context: unknown, parent: number, hint: HashHint): number;
  /** The hint of the context passed to the last `add` (null in exact mode). */
  readonly lastHint: HashHint;
  /**
   * How many words of the vector context passed to the last `add` differ from its hint's words,
   * their indices being `changedWords[0 .. changedCount)`; -1 when that `add` did not compare
   * them (no hint, a structural context, exact mode) or a `has` came after it.
   */
  readonly changedCount: number;
  /** Whether an equal state is stored. */
  has(config: KeyedConfig, context: unknown): boolean;
  /** Whether the state is the one stored at `index`. */
  isAt(config: KeyedConfig, context: unknown, index: number): boolean;
  /** Records the event that first reached `index`. */
  setEvent(index: number, event: number): void;
  parentOf(index: number): number;
  eventOf(index: number): number;
  /** Bytes used by the store's memory (see `ExploreStats.bytesPerState`). */
  bytes(): number;
  /** Releases what the store holds outside the heap (a file); traces cannot be rebuilt after. */
  dispose?(): void;
}

function grown<T extends Uint32Array | Int32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

const initialSlots = 1 << 8;

/**
 * A state's 64-bit fingerprint: the configuration's hash combined with the context's words
 * (vector mode, hashed from the parent's words where the hint gives them) or with its structural
 * hash. `fp` holds the last one computed; `lastHint` is what it leaves its successors.
 */
export class Fingerprinter implements ChangedWords {
  readonly fp = new Uint32Array(2);
  /** The words the last `of` hashed, in vector mode; null otherwise. */
  private hashed: Int32Array | null = null;
  /** The structural hash tree the last `of` built, outside vector mode. */
  private tree: HashHint = null;
  /** See `StateStore.changedCount`: the last `of`'s, -1 when it hashed whole. */
  changedCount = -1;
  private readonly hasher = new StructuralHasher();
  private readonly words = new Uint32Array(2);
  /** Finds the words a successor changed (made for the run's vector length on first use). */
  private diff: WordDiffer | null = null;
  private static readonly none = new Int32Array(0);

  /** See `StateStore.changedCount`. */
  get changedWords(): Int32Array {
    return this.diff?.changed ?? Fingerprinter.none;
  }

  /**
   * The hint the last `of` leaves its context's successors (valid until the next `of`). In
   * vector mode it is made on request: most successors a search fingerprints are stored
   * already, and nothing asks for their hints.
   */
  get lastHint(): HashHint {
    const words = this.hashed;
    if (words === null) return this.tree;
    return { words, a: this.words[0] as number, b: this.words[1] as number };
  }

  /** `vector`: every context of the run is a `VectorContext`. */
  constructor(private readonly vector: boolean) {}

  /** Computes the fingerprint of (`config`, `context`) into `fp`. */
  of(config: KeyedConfig, context: unknown, hint: HashHint): void {
    if (this.vector) {
      const words = wordsOf(context);
      const parent = hint as WordsHash | null;
      if (parent !== null && parent.words.length === words.length) {
        if (this.diff?.length !== words.length) this.diff = wordDiffer(words.length);
        this.changedCount = hashWordsFrom(
          parent.words,
          parent.a,
          parent.b,
          words,
          this.words,
          this.diff,
        );
      } else {
        hashWords(words, this.words);
        this.changedCount = -1;
      }
      this.hashed = words;
      combineHalves(config.hash, this.words[0] as number, this.words[1] as number, this.fp);
      return;
    }
    const tree = this.hasher.hashTree(context, hint as HashNode | null);
    this.tree = tree;
    this.changedCount = -1;
    combine(config.hash, tree, this.fp);
  }
}

/** What the fingerprint stores share: the fingerprinter, its output and the hint it leaves. */
export abstract class Fingerprinted {
  protected readonly prints: Fingerprinter;
  protected readonly fp: Uint32Array;

  /**
   * `vector`: every context of the run is a `VectorContext`, fingerprinted by its words, hashed
   * from the parent's words where the hint gives them; otherwise by its structural hash.
   */
  constructor(vector = false) {
    this.prints = new Fingerprinter(vector);
    this.fp = this.prints.fp;
  }

  /** The hint of the context passed to the last `add`. */
  get lastHint(): HashHint {
    return this.prints.lastHint;
  }

  /** See `StateStore.changedCount`. */
  get changedCount(): number {
    return this.prints.changedCount;
  }

  /** See `StateStore.changedCount`. */
  get changedWords(): Int32Array {
    return this.prints.changedWords;
  }
}

/**
 * Fingerprint (hash compaction) store, after TLC's fingerprint set, that also finds the index of
 * a duplicate: the store of runs that draw the state graph (`onTransition`).
 */
export class FingerprintStore extends Fingerprinted implements StateStore {
  size = 0;
  readonly indexed = true;
  private table = new Uint32Array(initialSlots);
  private mask = initialSlots - 1;
  private hi = new Uint32Array(initialSlots / 2);
  private lo = new Uint32Array(initialSlots / 2);
  private parents = new Int32Array(initialSlots / 2);
  private events = new Uint32Array(initialSlots / 2);

  private fingerprint(config: KeyedConfig, context: unknown, hint: HashHint): void {
    this.prints.of(config, context, hint);
  }

  /** The slot holding the current fingerprint, or the empty slot where it belongs. */
  private slotOf(h: number, l: number): number {
    let slot = h & this.mask;
    for (;;) {
      const at = this.table[slot] as number;
      if (at === 0 || (this.hi[at - 1] === h && this.lo[at - 1] === l)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  add(config: KeyedConfig, context: unknown, parent: number, hint: HashHint): number {
    this.fingerprint(config, context, hint);
    const h = this.fp[0] as number;
    const l = this.fp[1] as number;
    const slot = this.slotOf(h, l);
    const at = this.table[slot] as number;
    if (at !== 0) return -at;
    const index = this.size++;
    if (index >= this.hi.length) this.growDense();
    this.hi[index] = h;
    this.lo[index] = l;
    this.parents[index] = parent;
    this.table[slot] = index + 1;
    if (this.size * 2 > this.table.length) this.rehash();
    return index;
  }

  /** The index of the equal stored state, or -1. */
  find(config: KeyedConfig, context: unknown): number {
    this.fingerprint(config, context, null);
    const at = this.table[this.slotOf(this.fp[0] as number, this.fp[1] as number)] as number;
    return at - 1;
  }

  has(config: KeyedConfig, context: unknown): boolean {
    return this.find(config, context) !== -1;
  }

  isAt(config: KeyedConfig, context: unknown, index: number): boolean {
    return this.find(config, context) === index;
  }

  setEvent(index: number, event: number): void {
    this.events[index] = event;
  }

  parentOf(index: number): number {
    return this.parents[index] ?? -1;
  }

  eventOf(index: number): number {
    return this.events[index] ?? 0;
  }

  bytes(): number {
    return (
      this.table.byteLength +
      this.hi.byteLength +
      this.lo.byteLength +
      this.parents.byteLength +
      this.events.byteLength
    );
  }

  private growDense(): void {
    const n = this.hi.length * 2;
    this.hi = grown(this.hi, n);
    this.lo = grown(this.lo, n);
    this.parents = grown(this.parents, n);
    this.events = grown(this.events, n);
  }

  private rehash(): void {
    const table = new Uint32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let i = 0; i < this.size; i++) {
      let slot = (this.hi[i] as number) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = i + 1;
    }
    this.table = table;
    this.mask = mask;
  }
}

/** The words of a context of a vector run; throws if a step left a context without them. */
function wordsOf(context: unknown): Int32Array {
  const words = (context as VectorContext | null)?.words;
  if (words instanceof Int32Array) return words;
  throw new TypeError('a context of a vector-context run has no Int32Array `words`');
}

/** Exact store: full keys in a `Map`, parents and events in typed arrays. */
export class ExactStore implements StateStore {
  readonly indexed = true;
  private readonly index = new Map<string, number>();
  private keyChars = 0;
  private parents = new Int32Array(initialSlots);
  private events = new Uint32Array(initialSlots);

  /**
   * `vector`: every context of the run is a `VectorContext`, keyed by its words joined with
   * commas; otherwise by its JSON text.
   */
  constructor(private readonly vector = false) {}

  private keyOf(config: KeyedConfig, context: unknown): string {
    const text = this.vector ? wordsOf(context).join(',') : JSON.stringify(context);
    return `${config.key}\u0000${text}`;
  }

  get size(): number {
    return this.index.size;
  }

  add(config: KeyedConfig, context: unknown, parent: number): number {
    const key = this.keyOf(config, context);
    const found = this.index.get(key);
    if (found !== undefined) return -1 - found;
    const i = this.index.size;
    if (i >= this.parents.length) {
      this.parents = grown(this.parents, i * 2);
      this.events = grown(this.events, i * 2);
    }
    this.parents[i] = parent;
    this.index.set(key, i);
    this.keyChars += key.length;
    return i;
  }

  /** The index of the equal stored state, or -1. */
  find(config: KeyedConfig, context: unknown): number {
    return this.index.get(this.keyOf(config, context)) ?? -1;
  }

  has(config: KeyedConfig, context: unknown): boolean {
    return this.find(config, context) !== -1;
  }

  isAt(config: KeyedConfig, context: unknown, index: number): boolean {
    return this.find(config, context) === index;
  }

  setEvent(index: number, event: number): void {
    this.events[index] = event;
  }

  parentOf(index: number): number {
    return this.parents[index] ?? -1;
  }

  eventOf(index: number): number {
    return this.events[index] ?? 0;
  }

  bytes(): number {
    return this.parents.byteLength + this.events.byteLength + 2 * this.keyChars;
  }

  readonly lastHint = null;
  readonly changedCount = -1;
  readonly changedWords = new Int32Array(0);
}
