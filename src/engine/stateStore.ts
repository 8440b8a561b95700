/**
 * The visited-state store: each distinct state gets a dense index (0 = initial) with the index
 * of the state it was first reached from and the interned event that reached it, so that a
 * shortest trace can be rebuilt. Two implementations:
 * - `FingerprintStore` keeps only a 64-bit fingerprint per state, in typed arrays with an
 *   open-addressing (linear probing) hash table of indices; about 30 bytes per state;
 * - `ExactStore` keeps the full key in a `Map`.
 */
import { type FingerprintOut, fingerprintInto } from './fingerprint.ts';

/** What the explorer needs from a store. */
export interface StateStore {
  readonly size: number;
  /**
   * Adds the state keyed by its configuration key and context JSON. Returns its new index, or
   * `-1 - index` of the equal state already stored.
   */
  add(config: string, json: string, parent: number, event: number): number;
  /** Whether the state stored at `index` has this key. */
  holds(index: number, config: string, json: string): boolean;
  parentOf(index: number): number;
  eventOf(index: number): number;
  /** Bytes used by the store's memory (see `ExploreStats.bytesPerState`). */
  bytes(): number;
}

function grown<T extends Uint32Array | Int32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** Fingerprint (hash compaction) store: the typed-array design of TLC's fingerprint set. */
export class FingerprintStore implements StateStore {
  size = 0;
  private table = new Uint32Array(1 << 12);
  private mask = (1 << 12) - 1;
  private hi = new Uint32Array(1 << 11);
  private lo = new Uint32Array(1 << 11);
  private parents = new Int32Array(1 << 11);
  private events = new Uint32Array(1 << 11);
  private readonly fp: FingerprintOut = new Uint32Array(2);

  add(config: string, json: string, parent: number, event: number): number {
    fingerprintInto(config, json, this.fp);
    const h = this.fp[0] as number;
    const l = this.fp[1] as number;
    let slot = h & this.mask;
    for (;;) {
      const at = this.table[slot] as number;
      if (at === 0) break;
      if (this.hi[at - 1] === h && this.lo[at - 1] === l) return -at;
      slot = (slot + 1) & this.mask;
    }
    const index = this.size++;
    if (index >= this.hi.length) this.growDense();
    this.hi[index] = h;
    this.lo[index] = l;
    this.parents[index] = parent;
    this.events[index] = event;
    this.table[slot] = index + 1;
    if (this.size * 2 > this.table.length) this.rehash();
    return index;
  }

  holds(index: number, config: string, json: string): boolean {
    fingerprintInto(config, json, this.fp);
    return this.hi[index] === this.fp[0] && this.lo[index] === this.fp[1];
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

/** Exact store: full keys in a `Map`, parents and events in typed arrays. */
export class ExactStore implements StateStore {
  private readonly index = new Map<string, number>();
  private keyChars = 0;
  private parents = new Int32Array(1 << 11);
  private events = new Uint32Array(1 << 11);

  get size(): number {
    return this.index.size;
  }

  add(config: string, json: string, parent: number, event: number): number {
    const key = `${config}\u0000${json}`;
    const found = this.index.get(key);
    if (found !== undefined) return -1 - found;
    const i = this.index.size;
    if (i >= this.parents.length) {
      this.parents = grown(this.parents, i * 2);
      this.events = grown(this.events, i * 2);
    }
    this.parents[i] = parent;
    this.events[i] = event;
    this.index.set(key, i);
    this.keyChars += key.length;
    return i;
  }

  holds(index: number, config: string, json: string): boolean {
    return this.index.get(`${config}\u0000${json}`) === index;
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
}
