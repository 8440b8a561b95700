/**
 * Lists the interpreter reuses from one step of a search to the next instead of allocating
 * arrays. With these (and one guard arguments object a selection), a search of `incident-large`
 * allocates 0.75 KB a transition instead of 2.5 KB (docs/performance.md, "Steps that allocate
 * no arrays").
 */

/**
 * A list reused from one step of a search to the next: the first `length` entries of an array
 * that `clear` keeps. Emptying an array by setting its length drops its storage, and a fresh
 * array a step costs an allocation; the interpreter's selected transitions and the macrostep's
 * internal queue are kept in these instead.
 */
export class ReusedList<T> {
  private readonly items: T[] = [];
  /** The number of entries since the last `clear`. */
  length = 0;

  /** Appends `item`. */
  push(item: T): void {
    if (this.length < this.items.length) this.items[this.length] = item;
    else this.items.push(item);
    this.length++;
  }

  /** The `i`th entry, `0 <= i < length`. */
  at(i: number): T {
    return this.items[i] as T;
  }

  /** Keeps the entries `keep` accepts, in order. */
  retain(keep: (item: T) => boolean): void {
    let k = 0;
    for (let i = 0; i < this.length; i++) {
      const item = this.items[i] as T;
      if (keep(item)) this.items[k++] = item;
    }
    this.length = k;
  }

  /** Empties the list (its entries stay referenced until overwritten: they are not copied). */
  clear(): void {
    this.length = 0;
  }
}

/**
 * A list of state nodes reused from one microstep to the next: the first `length` entries of
 * `at`, which doubles when full. Exit and entry sets are built in these rather than in arrays,
 * which a search would allocate a few of a transition.
 */
export class NodeList {
  /** The nodes, in the first `length` entries; replaced by a larger array when full. */
  at = new Int32Array(32);
  /** The number of nodes on the list; set to 0 to empty it. */
  length = 0;

  /** Appends node `n`. */
  push(n: number): void {
    if (this.length === this.at.length) {
      const grown = new Int32Array(2 * this.length);
      grown.set(this.at);
      this.at = grown;
    }
    this.at[this.length++] = n;
  }

  /** Whether any node is on both lists. */
  meets(other: NodeList): boolean {
    for (let i = 0; i < this.length; i++) {
      const n = this.at[i] as number;
      for (let j = 0; j < other.length; j++) if (other.at[j] === n) return true;
    }
    return false;
  }

  /**
   * Sorts the list ascending (document order) and drops repeats, in place: insertion sort, as
   * the lists are a few nodes long, and a sort with a comparator allocates.
   */
  sortUnique(): void {
    const at = this.at;
    for (let i = 1; i < this.length; i++) {
      const n = at[i] as number;
      let j = i - 1;
      while (j >= 0 && (at[j] as number) > n) {
        at[j + 1] = at[j] as number;
        j--;
      }
      at[j + 1] = n;
    }
    let k = 0;
    for (let i = 0; i < this.length; i++) {
      if (k === 0 || at[i] !== at[k - 1]) at[k++] = at[i] as number;
    }
    this.length = k;
  }
}
