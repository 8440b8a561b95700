/**
 * Copies of typed arrays carved out of shared slabs: a view on an existing buffer costs far
 * less to make and to collect than a typed array with a buffer of its own (each of which is a
 * separate allocation outside the heap, with its own bookkeeping for the collector). A slab is
 * freed once no copy carved from it is reachable. The copies never overlap, so each may be kept
 * and read independently; writing one never changes another.
 */

/** A slab allocator of copies of one kind of typed array. */
class Slab<T extends Int32Array | Uint8Array> {
  private slab: T;
  private at = 0;

  /** `make(n)` makes a zeroed array of `n` elements; a slab holds `size` elements at least. */
  constructor(
    private readonly make: (n: number) => T,
    private readonly size: number,
  ) {
    this.slab = make(0);
  }

  /** A new copy of `from`, which is only read. */
  copy(from: T): T {
    const n = from.length;
    if (this.at + n > this.slab.length) {
      this.slab = this.make(Math.max(this.size, n));
      this.at = 0;
    }
    const own = this.slab.subarray(this.at, this.at + n) as T;
    this.at += n;
    own.set(from);
    return own;
  }
}

/**
 * Copies of state vectors' words, in slabs of 16 KiB, so that a slab kept by one state keeps
 * little else alive.
 */
export class WordSlab extends Slab<Int32Array> {
  constructor() {
    super((n) => new Int32Array(n), 1 << 12);
  }
}

/**
 * Copies of configuration flags, in slabs of 64 KiB: configurations are kept for the whole
 * search, so a slab is as long-lived as what it holds.
 */
export class ByteSlab extends Slab<Uint8Array> {
  constructor() {
    super((n) => new Uint8Array(n), 1 << 16);
  }
}
