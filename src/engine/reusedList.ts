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
